/**
 * The command line. Internal code: what users rely on is the commands, their options and exit codes
 * (see {@code snapds help} and {@code docs/api.md}).
 */
@InterfaceAudience.Private
package io.snapds.cli.load;

import org.apache.yetus.audience.InterfaceAudience;
