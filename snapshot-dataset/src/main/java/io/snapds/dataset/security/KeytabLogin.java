package io.snapds.dataset.security;

import static com.google.common.base.Preconditions.checkArgument;

import io.snapds.dataset.StorageException;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * Logs a process in to Kerberos from a keytab with Hadoop's
 * {@link UserGroupInformation#loginUserFromKeytab}, for the places that open their own HBase
 * connection in a long-lived process: the command line ({@code --principal/--keytab}), the Hive
 * handler and the CDAP plugin (the settings {@value #PRINCIPAL} and {@value #KEYTAB}). MapReduce
 * tasks never log in: they use the delegation tokens the submitting process put in the job.
 */
public final class KeytabLogin {
  /** Configuration key: the Kerberos principal to log in as, for example {@code etl/host@REALM}. */
  public static final String PRINCIPAL = "snapds.kerberos.principal";
  /** Configuration key: the keytab file of {@link #PRINCIPAL}. */
  public static final String KEYTAB = "snapds.kerberos.keytab";

  private KeytabLogin() {}

  /**
   * Logs in as {@code principal} with {@code keytab}, with {@code base}'s security settings
   * switched to Kerberos.
   *
   * @throws StorageException when the KDC refuses the principal or the keytab
   */
  public static synchronized void login(Configuration base, String principal, String keytab) {
    checkArgument(principal != null && !principal.isBlank(), "Kerberos principal must not be empty, got '%s'", principal);
    checkArgument(keytab != null && !keytab.isBlank(), "keytab must not be empty, got '%s'", keytab);
    Configuration conf = new Configuration(base);
    conf.set("hadoop.security.authentication", "kerberos");
    UserGroupInformation.setConfiguration(conf);
    try {
      UserGroupInformation.loginUserFromKeytab(principal, keytab);
    } catch (IOException e) {
      throw new StorageException("Kerberos login of " + principal + " with keytab " + keytab + " failed", e);
    }
  }

  /**
   * Logs in when {@code conf} sets both {@value #PRINCIPAL} and {@value #KEYTAB} and this process
   * is not logged in as that principal already; does nothing when neither is set.
   *
   * @throws IllegalArgumentException when only one of the two is set
   */
  public static synchronized void loginIfConfigured(Configuration conf) {
    String principal = conf.getTrimmed(PRINCIPAL);
    String keytab = conf.getTrimmed(KEYTAB);
    if (principal == null && keytab == null) {
      return;
    }
    checkArgument(principal != null && keytab != null, "%s and %s go together: got %s and %s",
        PRINCIPAL, KEYTAB, principal, keytab);
    try {
      UserGroupInformation current = UserGroupInformation.getLoginUser();
      if (current.hasKerberosCredentials() && principal.equals(current.getUserName())) {
        return;
      }
    } catch (IOException e) {
      // not logged in yet: log in below
    }
    login(conf, principal, keytab);
  }
}
