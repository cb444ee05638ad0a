/**
 * The lifecycle of a dataset's three tables as one ({@code CompositeDatasetAdmin}) and access
 * control. Public API, except the types marked {@code @InterfaceAudience.Private}.
 */
@InterfaceAudience.Public
package io.snapds.dataset.admin;

import org.apache.yetus.audience.InterfaceAudience;
