#!/usr/bin/env bash
# Starts the separate-process test bed by hand: ZooKeeper, HDFS (a MiniDFSCluster in its own
# process), an HMaster, two HRegionServers and Tephra's transaction service, each a JVM of its own
# on loopback, data and logs under DIR (emptied first). The same launcher the integration test
# uses (io.snapds.procs.ProcessCluster). Prints the options to give the command line:
#
#   integration-tests-processes/src/test/scripts/start-cluster.sh /tmp/snapds-cluster
#   ./snapds $(cat /tmp/snapds-cluster/options) create t:users
#   integration-tests-processes/src/test/scripts/stop-cluster.sh /tmp/snapds-cluster
#
# Needs the module's test classes and class path, once:
#   mvn -o -B -pl integration-tests-processes -am test-compile
set -euo pipefail
if [ $# -ne 1 ]; then
  echo "usage: $0 DIR" >&2
  exit 2
fi
module="$(cd "$(dirname "$0")/../../.." && pwd)"
if [ ! -f "$module/target/cluster.classpath" ] || [ ! -d "$module/target/test-classes" ]; then
  echo "$0: build the module first: mvn -o -B -pl integration-tests-processes -am test-compile" >&2
  exit 1
fi
mkdir -p "$1"
dir="$(cd "$1" && pwd)"
if [ -f "$dir/pids" ]; then
  echo "$0: $dir holds a cluster already (stop it with stop-cluster.sh $dir)" >&2
  exit 1
fi
# the flags HBase and HDFS need on JDK 17 (the parent pom's jdk17.test.flags)
flags="$(sed -n 's:.*<jdk17.test.flags>\(.*\)</jdk17.test.flags>.*:\1:p' "$module/../pom.xml")"
java=java
[ -n "${JAVA_HOME:-}" ] && java="$JAVA_HOME/bin/java"
exec "$java" -Xmx256m "-Dsnapds.jdk17.flags=$flags" \
  -cp "$module/target/test-classes:$(cat "$module/target/cluster.classpath")" \
  io.snapds.procs.ProcessCluster start "$dir"
