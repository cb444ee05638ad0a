package io.snapds.cli.env;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Path;
import java.util.Properties;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.minikdc.MiniKdc;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --principal/--keytab} against a real KDC (Hadoop's MiniKdc, in this process). */
class KerberosLoginTest {
  @TempDir
  Path dir;

  @Test
  void aKeytabLogsThePrincipalInAndAWrongOneIsRefused() throws Exception {
    Properties conf = MiniKdc.createConf();
    MiniKdc kdc = new MiniKdc(conf, dir.resolve("kdc").toFile());
    kdc.start();
    try {
      File keytab = dir.resolve("etl.keytab").toFile();
      kdc.createPrincipal(keytab, "etl");
      String principal = "etl@" + kdc.getRealm();
      Configuration base = new Configuration(false);

      KerberosLogin.of(principal, keytab.toPath()).orElseThrow().login(base);
      UserGroupInformation user = UserGroupInformation.getLoginUser();
      assertEquals(principal, user.getUserName());
      assertTrue(user.hasKerberosCredentials(), "logged in from the keytab");
      assertTrue(UserGroupInformation.isSecurityEnabled());

      File other = dir.resolve("other.keytab").toFile();
      kdc.createPrincipal(other, "other");
      EnvironmentException wrong = assertThrows(EnvironmentException.class,
          () -> KerberosLogin.of("etl@" + kdc.getRealm(), other.toPath()).orElseThrow().login(base));
      assertTrue(wrong.getMessage().startsWith("Kerberos login of " + principal + " with keytab " + other + " failed"),
          wrong.getMessage());
    } finally {
      // the rest of this JVM's tests run without Kerberos
      UserGroupInformation.reset();
      UserGroupInformation.setConfiguration(new Configuration(false));
      kdc.stop();
    }
  }
}
