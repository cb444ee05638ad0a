/**
 * Dataset events beyond the core: {@link io.snapds.events.KafkaEventSink}, an
 * {@link io.snapds.dataset.EventSink} for the core's {@link io.snapds.dataset.Relay} that
 * publishes to a Kafka topic keyed by dataset, and {@link io.snapds.events.EventConsumer}, which
 * reads events from Kafka or straight from a dataset's outbox and runs each one's effect once,
 * and {@link io.snapds.events.AuditGate}, a handler that audits each staged snapshot and
 * publishes or discards it once. Public API. See docs/events.md.
 */
@InterfaceAudience.Public
package io.snapds.events;

import org.apache.yetus.audience.InterfaceAudience;
