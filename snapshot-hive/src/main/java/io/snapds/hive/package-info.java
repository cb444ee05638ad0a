/**
 * The Hive storage handler. Internal code: what users rely on is the handler's class name, the
 * table properties and the behaviour documented in {@code docs/api.md} and the module README.
 */
@InterfaceAudience.Private
package io.snapds.hive;

import org.apache.yetus.audience.InterfaceAudience;
