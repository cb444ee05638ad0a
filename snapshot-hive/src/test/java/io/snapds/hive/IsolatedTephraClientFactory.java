package io.snapds.hive;

import io.snapds.dataset.tx.TephraServiceClientFactory;
import io.snapds.dataset.tx.TransactionClientFactory;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.tephra.TransactionSystemClient;

/**
 * The handler's default Tephra client ({@link TephraServiceClientFactory}: the transaction service
 * found through ZooKeeper) with Tephra's thrift classes and libthrift 0.9.3 in a class loader of
 * their own. Hive 4.1's hive-exec carries libthrift 0.16, in which Tephra 0.16.1's client does not
 * load ({@code org.apache.thrift.transport.TFramedTransport} moved to {@code ...transport.layered}
 * in thrift 0.14), so next to Hive the factory, Tephra's thrift client and Guice modules
 * ({@code org.apache.tephra.distributed}, {@code org.apache.tephra.runtime}) and thrift itself
 * load child-first from {@value #JARS} (the tephra-core-shaded and libthrift jars the CDAP plugin
 * ships); everything else, the {@code TransactionSystemClient} interface included, is Hive's.
 */
public final class IsolatedTephraClientFactory implements TransactionClientFactory {
  /** Setting: the tephra-core-shaded and libthrift 0.9.3 jars, comma-separated. */
  public static final String JARS = "snapds.test.tephra.client.jars";
  private static final List<String> CHILD_FIRST = List.of("org.apache.thrift.", "org.apache.tephra.distributed.",
      "org.apache.tephra.runtime.", TephraServiceClientFactory.class.getName());

  private TransactionClientFactory delegate;

  @Override
  public TransactionSystemClient create(Configuration conf) {
    List<URL> urls = new ArrayList<>();
    try {
      for (String jar : conf.getTrimmedStrings(JARS)) {
        urls.add(Path.of(jar).toUri().toURL());
      }
    } catch (MalformedURLException e) {
      throw new IllegalArgumentException(JARS + ": " + conf.get(JARS), e);
    }
    if (urls.isEmpty()) {
      throw new IllegalArgumentException(JARS + " is not set: the Tephra and libthrift 0.9.3 jars");
    }
    urls.add(TephraServiceClientFactory.class.getProtectionDomain().getCodeSource().getLocation());
    ClassLoader loader = new ChildFirst(urls.toArray(URL[]::new), getClass().getClassLoader());
    try {
      delegate = (TransactionClientFactory) loader.loadClass(TephraServiceClientFactory.class.getName())
          .getDeclaredConstructor().newInstance();
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("loading " + TephraServiceClientFactory.class.getName() + " from " + urls, e);
    }
    return delegate.create(conf);
  }

  @Override
  public void close() {
    if (delegate != null) {
      delegate.close();
    }
  }

  /** Child-first for {@link #CHILD_FIRST}, parent-first for the rest. */
  private static final class ChildFirst extends URLClassLoader {
    ChildFirst(URL[] urls, ClassLoader parent) {
      super(urls, parent);
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
      if (CHILD_FIRST.stream().noneMatch(name::startsWith)) {
        return super.loadClass(name, resolve);
      }
      synchronized (getClassLoadingLock(name)) {
        Class<?> c = findLoadedClass(name);
        if (c == null) {
          c = findClass(name);
        }
        if (resolve) {
          resolveClass(c);
        }
        return c;
      }
    }
  }
}
