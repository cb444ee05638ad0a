#!/usr/bin/env bash
# Stops the processes start-cluster.sh started in DIR (SIGTERM, SIGKILL after 30 s); the data stays.
set -euo pipefail
if [ $# -ne 1 ]; then
  echo "usage: $0 DIR" >&2
  exit 2
fi
module="$(cd "$(dirname "$0")/../../.." && pwd)"
dir="$(cd "$1" && pwd)"
java=java
[ -n "${JAVA_HOME:-}" ] && java="$JAVA_HOME/bin/java"
exec "$java" -Xmx64m -cp "$module/target/test-classes:$(cat "$module/target/cluster.classpath")" \
  io.snapds.procs.ProcessCluster stop "$dir"
