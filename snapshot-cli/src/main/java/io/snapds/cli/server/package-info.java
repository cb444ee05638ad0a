/**
 * The home's server process (the embedded default's HBase and Tephra service, and the commands it
 * runs for clients), the client's way to it, and the HTTP pages it and {@code snapds ui} serve
 * (status page, metrics). Where a command's connection comes from is {@code io.snapds.cli.env}.
 * Internal code: what users rely on is the commands, their options and exit codes (see
 * {@code snapds help} and {@code docs/api.md}).
 */
@InterfaceAudience.Private
package io.snapds.cli.server;

import org.apache.yetus.audience.InterfaceAudience;
