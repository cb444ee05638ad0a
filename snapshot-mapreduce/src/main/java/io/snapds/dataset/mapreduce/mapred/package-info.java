/**
 * The same input format for the old {@code mapred} API. Public API.
 */
@InterfaceAudience.Public
package io.snapds.dataset.mapreduce.mapred;

import org.apache.yetus.audience.InterfaceAudience;
