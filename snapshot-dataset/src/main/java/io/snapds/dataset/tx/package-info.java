/**
 * An in-process Tephra transaction manager for the embedded command line and tests. Internal.
 */
@InterfaceAudience.Private
package io.snapds.dataset.tx;

import org.apache.yetus.audience.InterfaceAudience;
