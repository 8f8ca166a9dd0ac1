"""The processes of a chaos or soak run (bench/README.md "Chaos"): its own PostgreSQL cluster and
redis-server, two ASGI servers and three Celery workers (timers; the sweeper with beat, on its own
queue; the background one for the integrity signals), each started, killed and restarted here, and
all of them stopped again at the end.

PostgreSQL and Redis are the run's own (a cluster named after the run's database, ``chaos`` or
``soak``, on its own port, and a redis-server that keeps nothing on disk), so restarting them
disturbs nothing else on the machine. The PostgreSQL major version is the newest under
``/etc/postgresql``.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parents[2]
VENV_BIN = Path(sys.executable).parent


def pg_version() -> str:
    versions = [v for v in os.listdir("/etc/postgresql") if v.isdigit()]
    if not versions:
        raise SystemExit("no PostgreSQL under /etc/postgresql")
    return max(versions, key=int)


@dataclass
class Proc:
    name: str
    argv: list[str]
    cwd: Path
    log: Path
    popen: subprocess.Popen[bytes] | None = None

    def start(self, env: dict[str, str]) -> None:
        with self.log.open("ab") as out:
            self.popen = subprocess.Popen(  # noqa: S603 - our own argv
                self.argv, cwd=self.cwd, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
            )

    def kill(self) -> None:
        """``kill -9`` of the process and everything it started (its process group)."""
        if self.popen is None:
            return
        try:
            os.killpg(self.popen.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.popen.wait()
        self.popen = None

    def pids(self) -> list[int]:
        """The process and its children (the same process group)."""
        if self.popen is None:
            return []
        group, found = self.popen.pid, []
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[2]) == group:
                found.append(int(entry.name))
        return found

    def rss_mib(self) -> float:
        total = 0
        for pid in self.pids():
            try:
                for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
            except OSError:
                continue
        return total / 1024


@dataclass
class Infra:
    database_url: str
    redis_url: str
    ports: tuple[int, ...] = (8031, 8032)
    run_dir: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="chaos-")))
    servers: list[Proc] = field(default_factory=list)
    worker: Proc | None = None
    sweeper: Proc | None = None
    background: Proc | None = None
    redis: Proc | None = None
    pg_started: bool = False

    def __post_init__(self) -> None:
        db, redis = urlparse(self.database_url), urlparse(self.redis_url)
        self.pg_port, self.db_name = db.port or 5432, db.path.lstrip("/")
        self.cluster = self.db_name
        self.redis_port = redis.port or 6379
        if self.pg_port == 5432 or self.redis_port == 6379:
            raise SystemExit("the chaos run restarts its PostgreSQL and Redis: give it its own ports "
                             "(DATABASE_URL and REDIS_URL), never the shared 5432 / 6379")
        self.version = pg_version()
        self.env = {
            **os.environ, "GAMES_START_DELAY": "1", "GAMES_NEXT_HAND_DELAY": "1", "LOG_LEVEL": "WARNING",
            "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost", "PYTHONUNBUFFERED": "1",
            # The servers and the worker share their metrics there, fresh for each run (run_dir is new).
            "PROMETHEUS_MULTIPROC_DIR": str(self.run_dir / "metrics"),
        }
        (self.run_dir / "metrics").mkdir(exist_ok=True)
        self.env.pop("DATABASE_POOL", None)  # the platform's processes pool their connections
        self.urls = [f"ws://127.0.0.1:{p}" for p in self.ports]
        for i, port in enumerate(self.ports):
            self.servers.append(Proc(
                f"asgi-{i + 1}",
                [str(VENV_BIN / "uvicorn"), "config.asgi:application", "--app-dir", "platform", "--host",
                 "127.0.0.1", "--port", str(port), "--lifespan", "off", "--log-level", "warning"],
                ROOT, self.run_dir / f"asgi-{i + 1}.log"))
        self.worker = Proc("worker", [], ROOT / "platform", self.run_dir / "worker.log")
        self.sweeper = Proc("sweeper", [], ROOT / "platform", self.run_dir / "sweeper.log")
        self.background = Proc("background", [], ROOT / "platform", self.run_dir / "background.log")
        self.redis = Proc("redis", ["redis-server", "--port", str(self.redis_port), "--bind", "127.0.0.1",
                                    "--save", "", "--appendonly", "no"], self.run_dir, self.run_dir / "redis.log")

    # --- PostgreSQL ----------------------------------------------------------------------

    def _pg(self, *args: str) -> None:
        subprocess.run(["pg_ctlcluster", *args], check=True, capture_output=True)  # noqa: S603, S607

    def pg_ensure(self) -> None:
        """Create the cluster once (trust auth, its own port), start it, and give the run a
        fresh database."""
        conf = Path(f"/etc/postgresql/{self.version}/{self.cluster}")
        if not conf.exists():
            subprocess.run(["pg_createcluster", self.version, self.cluster, "--port", str(self.pg_port)],  # noqa: S603, S607
                           check=True, capture_output=True)
            (conf / "pg_hba.conf").write_text(
                "local all all trust\nhost all all 127.0.0.1/32 trust\nhost all all ::1/128 trust\n")
        if not self.pg_running():
            self._pg(self.version, self.cluster, "start")
        self.pg_started = True
        self._wait(lambda: self._psql("SELECT 1") is not None, "PostgreSQL")
        self._psql(f'DROP DATABASE IF EXISTS "{self.db_name}" WITH (FORCE)')
        self._psql(f'CREATE DATABASE "{self.db_name}"')

    def pg_running(self) -> bool:
        out = subprocess.run(["pg_lsclusters", "-h"], capture_output=True, text=True).stdout  # noqa: S607
        return any(line.split()[:2] == [self.version, self.cluster] and "online" in line for line in out.splitlines())

    def pg_restart(self, down: float, mode: str) -> None:
        """Stop the cluster (``fast``, or ``immediate``: a crash, recovered from the WAL at
        start), wait ``down`` seconds, start it."""
        self._pg(self.version, self.cluster, "stop", "-m", mode)
        time.sleep(down)
        self._pg(self.version, self.cluster, "start")

    def _psql(self, sql: str, db: str = "postgres") -> str | None:
        done = subprocess.run(  # noqa: S603 - our own arguments
            ["psql", "-h", "127.0.0.1", "-p", str(self.pg_port), "-U", "postgres", "-d", db, "-qtAc", sql],  # noqa: S607
            capture_output=True, text=True)
        return done.stdout.strip() if done.returncode == 0 else None

    def pg_connections(self) -> int | None:
        """Open connections to the run's database, the sampler's own query not counted."""
        out = self._psql("SELECT count(*) - 1 FROM pg_stat_activity WHERE datname = current_database()",
                         self.db_name)
        return int(out) if out else None

    # --- Redis ---------------------------------------------------------------------------

    def redis_start(self) -> None:
        assert self.redis is not None
        self.redis.start(self.env)
        self._wait(lambda: self.redis_clients() is not None, "redis-server")

    def redis_clients(self) -> int | None:
        """Clients connected to the run's redis-server, the sampler's own not counted."""
        done = subprocess.run(["redis-cli", "-p", str(self.redis_port), "info", "clients"],  # noqa: S603, S607
                              capture_output=True, text=True)
        for line in done.stdout.splitlines():
            if line.startswith("connected_clients:"):
                return int(line.split(":")[1]) - 1
        return None

    # --- the platform's processes --------------------------------------------------------

    def migrate(self) -> None:
        """The schema, and the static files' manifest the pages need (bots open and enter private
        rooms through them)."""
        for command in (["migrate", "-v0"], ["collectstatic", "--noinput", "-v0"]):
            subprocess.run([sys.executable, "manage.py", *command], cwd=ROOT, env=self.env,  # noqa: S603
                           check=True)

    def server_start(self, i: int) -> None:
        self.servers[i].start(self.env)
        port = self.ports[i]
        self._wait(lambda: _healthy(port), f"the ASGI server on port {port}")

    def worker_start(self) -> None:
        """The timers' worker (the default queue)."""
        assert self.worker is not None
        self.worker.argv = [str(VENV_BIN / "celery"), "-A", "config", "worker", "--loglevel", "WARNING",
                            "--concurrency", "2", "-n", f"timers-{self.run_dir.name}@%h"]
        self.worker.start(self.env)

    def sweeper_start(self) -> None:
        """The sweeper's worker, with beat, on the sweeper's own queue (README.md "Production processes")."""
        assert self.sweeper is not None
        schedule = Path(tempfile.mkdtemp(dir=self.run_dir)) / "beat"  # a fresh beat file: a kill may break one
        self.sweeper.argv = [str(VENV_BIN / "celery"), "-A", "config", "worker", "--beat", "-Q", "sweep",
                             "--concurrency", "1", "--loglevel", "WARNING", "-n", f"sweeper-{self.run_dir.name}@%h",
                             "--schedule", str(schedule)]
        self.sweeper.start(self.env)

    def background_start(self) -> None:
        """The background worker: the integrity signals' batches, at a low CPU priority (README.md
        "Production processes")."""
        assert self.background is not None
        self.background.argv = [str(VENV_BIN / "celery"), "-A", "config", "worker", "-Q", "background",
                                "--concurrency", "1", "--loglevel", "WARNING", "-n",
                                f"background-{self.run_dir.name}@%h"]
        self.background.start(self.env)

    def workers_start(self) -> None:
        self.worker_start()
        self.sweeper_start()
        self.background_start()

    def start_all(self) -> None:
        self.pg_ensure()
        self.redis_start()
        self.migrate()
        for i in range(len(self.servers)):
            self.server_start(i)
        self.workers_start()

    def stop_all(self) -> None:
        """Everything this run started, stopped: the servers, the worker, redis-server, and
        the cluster."""
        for proc in [*self.servers, self.worker, self.sweeper, self.background, self.redis]:
            if proc is not None:
                proc.kill()
        if self.pg_started:
            subprocess.run(["pg_ctlcluster", self.version, self.cluster, "stop", "-m", "fast"],  # noqa: S603, S607
                           capture_output=True)
            self.pg_started = False

    def processes(self) -> list[Proc]:
        return [p for p in [*self.servers, self.worker, self.sweeper, self.background] if p is not None]

    @staticmethod
    def _wait(ready: object, what: str, timeout: float = 60) -> None:
        assert callable(ready)
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if ready():
                return
            time.sleep(0.2)
        raise RuntimeError(f"{what} did not come up within {timeout:.0f} s")

    def describe(self) -> str:
        """Where the run's logs and processes are, for its first line."""
        return (f"logs in {self.run_dir}; PostgreSQL {self.version} cluster {self.cluster} on port {self.pg_port}, "
                f"redis-server on port {self.redis_port}, servers on ports {', '.join(map(str, self.ports))}")

    def rng_server(self, rng: random.Random) -> int:
        return rng.randrange(len(self.servers))


def exit_on_signals() -> None:
    """SIGTERM and SIGHUP end a run through SystemExit, so its ``finally`` stops every process
    it started."""

    def terminate(signum: int, frame: FrameType | None) -> None:
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, terminate)
    signal.signal(signal.SIGHUP, terminate)


def health(port: int) -> dict[str, Any] | None:
    """The server's ``/healthz`` report (also when it answers 503), or None if it does not answer."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as response:  # noqa: S310
            body = response.read()
    except urllib.error.HTTPError as exc:
        body = exc.read()
    except OSError:
        return None
    try:
        report = json.loads(body)
    except ValueError:
        return None
    return report if isinstance(report, dict) else None


def _healthy(port: int) -> bool:
    """Whether the server answers HTTP (its health may still report a dependency down)."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2):  # noqa: S310
            return True
    except urllib.error.HTTPError:
        return True
    except OSError:
        return False
