package io.snapds.dataset.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.Test;

/** The settings of the Hive handler and the CDAP plugin; the login itself is tested against a MiniKdc in snapshot-cli. */
class KeytabLoginTest {
  @Test
  void withoutSettingsNothingHappensAndHalfTheSettingsIsRefused() throws Exception {
    Configuration conf = new Configuration(false);
    KeytabLogin.loginIfConfigured(conf);
    assertFalse(UserGroupInformation.getLoginUser().hasKerberosCredentials());

    conf.set(KeytabLogin.PRINCIPAL, "etl@EXAMPLE.COM");
    IllegalArgumentException half = assertThrows(IllegalArgumentException.class,
        () -> KeytabLogin.loginIfConfigured(conf));
    assertEquals("snapds.kerberos.principal and snapds.kerberos.keytab go together: got etl@EXAMPLE.COM and null",
        half.getMessage());
  }
}
