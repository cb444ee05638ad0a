/**
 * Kerberos login for the processes that open their own connections (command line, adapters).
 * Internal.
 */
@InterfaceAudience.Private
package io.snapds.dataset.security;

import org.apache.yetus.audience.InterfaceAudience;
