package io.snapds.it.cdap.transforms;

import io.cdap.cdap.api.annotation.Description;
import io.cdap.cdap.api.annotation.Name;
import io.cdap.cdap.api.plugin.PluginConfig;
import javax.annotation.Nullable;

/** Configuration of {@link GateTransform} and {@link FailTransform}. */
public class GateConfig extends PluginConfig {
  @Name("dir")
  @Description("Gate: the directory of the 'entered' and 'open' files")
  @Nullable
  String dir;

  @Name("failOn")
  @Description("Fail: the value of field 'name' that makes the stage throw")
  @Nullable
  String failOn;
}
