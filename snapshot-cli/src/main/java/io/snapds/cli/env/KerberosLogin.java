package io.snapds.cli.env;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import io.snapds.dataset.StorageException;
import io.snapds.dataset.security.KeytabLogin;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;

/**
 * {@code --principal P --keytab FILE}: logs this process in to Kerberos before it connects, with
 * Hadoop's {@link UserGroupInformation#loginUserFromKeytab}, so that HBase (and the MapReduce jobs
 * it submits, which take delegation tokens from this login) see that principal.
 */
public record KerberosLogin(String principal, Path keytab) {
  /**
   * The login the options ask for; empty when neither is given.
   *
   * @throws IllegalArgumentException when only one of the two is given, or the keytab is not a
   *     readable file
   */
  public static Optional<KerberosLogin> of(String principal, Path keytab) {
    if (principal == null && keytab == null) {
      return Optional.empty();
    }
    if (principal == null || principal.isBlank() || keytab == null) {
      throw new IllegalArgumentException("--principal and --keytab go together: got --principal "
          + (principal == null ? "(none)" : "'" + principal + "'") + " and --keytab " + (keytab == null ? "(none)" : keytab));
    }
    if (!Files.isRegularFile(keytab) || !Files.isReadable(keytab)) {
      throw new IllegalArgumentException("keytab " + keytab + " is not a readable file");
    }
    return Optional.of(new KerberosLogin(principal, keytab.toAbsolutePath()));
  }

  /**
   * Logs in with {@code conf}'s security settings, switched to Kerberos.
   *
   * @throws EnvironmentException when the KDC refuses the principal or keytab
   */
  public void login(Configuration base) {
    try {
      KeytabLogin.login(base, principal, keytab.toString());
    } catch (StorageException e) {
      throw new EnvironmentException(e.getMessage(), e);
    }
  }

  /** The configuration a login reads: HBase's defaults plus the given {@code hbase-site.xml}. */
  public static Configuration configuration(Optional<Path> hbaseSite) {
    Configuration conf = HBaseConfiguration.create();
    hbaseSite.ifPresent(p -> conf.addResource(new org.apache.hadoop.fs.Path(p.toUri())));
    return conf;
  }
}
