/**
 * Conversion between CDAP records and dataset rows. Internal.
 */
@InterfaceAudience.Private
package io.snapds.cdap.codec;

import org.apache.yetus.audience.InterfaceAudience;
