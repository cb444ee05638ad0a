/**
 * Reaching the Tephra transaction service: the {@link io.snapds.dataset.tx.TransactionClientFactory}
 * a process names in its configuration, and the datasets opened with it. Public API, except the
 * types marked {@code @InterfaceAudience.Private} (the in-process transaction manager of the
 * embedded command line and tests, and the adapters' shared {@code JobDatasets}).
 */
@InterfaceAudience.Public
package io.snapds.dataset.tx;

import org.apache.yetus.audience.InterfaceAudience;
