package io.snapds.dataset.testing;

import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * {@code @ExtendWith(MiniClusterExtension.class)}: makes sure the JVM's shared {@link MiniCluster}
 * is running before the class's tests, with no transaction left in progress by an earlier class,
 * and injects it into test constructors and methods.
 */
public final class MiniClusterExtension implements BeforeAllCallback, ParameterResolver {
  @Override
  public void beforeAll(ExtensionContext context) {
    MiniCluster.get().endLeftoverTransactions();
  }

  @Override
  public boolean supportsParameter(ParameterContext p, ExtensionContext e) {
    return p.getParameter().getType() == MiniCluster.class;
  }

  @Override
  public Object resolveParameter(ParameterContext p, ExtensionContext e) {
    return MiniCluster.get();
  }
}
