/**
 * How a dataset is stored: metadata layout and codecs, the transactional metadata table, the data
 * table and its row keys. Internal: no compatibility promise; users go through
 * {@code io.snapds.dataset}.
 */
@InterfaceAudience.Private
package io.snapds.dataset.store;

import org.apache.yetus.audience.InterfaceAudience;
