/**
 * Writer locks: lease values, settings and the errors a writer may get. Public API, except the
 * lock table itself and the lease keeper ({@code @InterfaceAudience.Private}).
 */
@InterfaceAudience.Public
package io.snapds.dataset.lock;

import org.apache.yetus.audience.InterfaceAudience;
