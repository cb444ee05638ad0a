/**
 * Where a command's HBase connection and Tephra client come from: the {@link
 * io.snapds.cli.env.Environment} kinds (HBase and Tephra in this process, a given cluster, one
 * injected by tests), the global options that choose one, the home directory's lock and Kerberos
 * login. The home's server process, which the default environment is a client of, is
 * {@code io.snapds.cli.server}. Internal code: what users rely on is the commands, their options
 * and exit codes (see {@code snapds help} and {@code docs/api.md}).
 */
@InterfaceAudience.Private
package io.snapds.cli.env;

import org.apache.yetus.audience.InterfaceAudience;
