/**
 * The CDAP batch sink and source plugins. Internal code: what users rely on is the plugin names,
 * their properties and the behaviour documented in {@code docs/api.md} and the module README.
 */
@InterfaceAudience.Private
package io.snapds.cdap;

import org.apache.yetus.audience.InterfaceAudience;
