"""A Spark standalone cluster on this machine, for the tests and the benchmark: a master and a
worker started with PySpark's own ``bin/spark-class`` (each a JVM process of its own; the
worker starts the job's executor, a third), and a session connected to it whose Python
workers run this interpreter. Everything is stopped on :meth:`Cluster.stop`."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Dict, List, Optional

import pyspark
from pyspark.sql import SparkSession


def java_missing() -> Optional[str]:
    """Why Spark cannot run here (no ``java`` on PATH or in ``$JAVA_HOME``), or None."""
    home = os.environ.get("JAVA_HOME")
    if home and (Path(home) / "bin" / "java").exists():
        return None
    return None if shutil.which("java") else "no Java runtime (java on PATH or $JAVA_HOME)"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Cluster:
    """A master, a worker with ``cores`` cores and ``memory`` for its executors, and a
    session (``self.spark``) on them."""

    def __init__(self, cores: int = 2, memory: str = "2g", executor_memory: str = "1g",
                 conf: Optional[Dict[str, str]] = None) -> None:
        self.home = Path(pyspark.__file__).resolve().parent
        self.dir = Path(tempfile.mkdtemp(prefix="urnkit-spark-"))
        spark_env = {"SPARK_HOME": str(self.home), "SPARK_LOCAL_IP": "127.0.0.1",
                     "PYSPARK_PYTHON": sys.executable}
        self.env = dict(os.environ, **spark_env, SPARK_LOG_DIR=str(self.dir),
                        PYSPARK_DRIVER_PYTHON=sys.executable)
        self.processes: List[subprocess.Popen[bytes]] = []
        port = _free_port()
        self.url = f"spark://127.0.0.1:{port}"
        try:
            self._start("master", ["org.apache.spark.deploy.master.Master", "--host", "127.0.0.1",
                                   "--port", str(port), "--webui-port", str(_free_port())],
                        "Starting Spark master at")
            self._start("worker", ["org.apache.spark.deploy.worker.Worker", self.url,
                                   "--host", "127.0.0.1", "--cores", str(cores),
                                   "--memory", memory, "--webui-port", str(_free_port()),
                                   "--work-dir", str(self.dir / "work")],
                        "Successfully registered with master")
            builder = (
                SparkSession.builder.master(self.url).appName("urnkit-tests")
                .config("spark.executor.memory", executor_memory)
                .config("spark.executor.cores", str(cores))
                .config("spark.pyspark.python", sys.executable)
                .config("spark.ui.enabled", "false")
                .config("spark.ui.showConsoleProgress", "false")
                .config("spark.sql.shuffle.partitions", str(2 * cores))
            )
            for k, v in (conf or {}).items():
                builder = builder.config(k, v)
            os.environ.update(spark_env)  # the driver's session starts from this process
            self.spark = builder.getOrCreate()
        except BaseException:
            self.stop()
            raise

    def _start(self, name: str, args: List[str], ready: str, timeout: float = 120) -> None:
        log = self.dir / f"{name}.log"
        with open(log, "wb") as out:
            process = subprocess.Popen(
                [str(self.home / "bin" / "spark-class"), *args], env=self.env, stdout=out,
                stderr=subprocess.STDOUT, start_new_session=True,
            )
        self.processes.append(process)
        deadline = time.monotonic() + timeout
        while ready not in log.read_text(errors="replace"):
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the Spark {name} did not start:\n{log.read_text()[-4000:]}")
            time.sleep(0.2)

    def stop(self) -> None:
        """Stops the session, then the worker (and its executors) and the master."""
        spark = getattr(self, "spark", None)
        if spark is not None:
            spark.stop()
        for process in reversed(self.processes):
            if process.poll() is None:
                os.killpg(process.pid, 15)
                try:
                    process.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    os.killpg(process.pid, 9)
                    process.wait()
        self.processes.clear()
        shutil.rmtree(self.dir, ignore_errors=True)
