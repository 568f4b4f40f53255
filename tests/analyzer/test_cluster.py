"""Runs on a Dask cluster: bit-identical to the local engine, for plain and paired runs,
with a worker killed mid-run, and with the pieces kept in the store."""

from __future__ import annotations

import json
import os
import signal
import threading
import time

import numpy as np
import pytest

distributed = pytest.importorskip("distributed")

from analyzer.run.context import open_context  # noqa: E402
from analyzer.run.execution import play_jobs  # noqa: E402
from analyzer.run.params import resolve_table  # noqa: E402
from analyzer.run.runner import run  # noqa: E402
from analyzer.strategy.sweeps import field_range, sweep  # noqa: E402
from sims import engine  # noqa: E402
from sims.registry import get_game  # noqa: E402
from sims.spec import Mode  # noqa: E402

pytestmark = pytest.mark.slow  # Dask clusters of worker processes


@pytest.fixture(scope="module")
def cluster():
    """A LocalCluster of 2 single-threaded worker processes, shared by the module."""
    found = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0", silence_logs=50
    )
    yield found
    # a test that failed midway can leave Dask's close waiting for ever: give it a minute
    # in a daemon thread, so a failure is reported instead of hanging the whole run
    closing = threading.Thread(target=found.close, daemon=True)
    closing.start()
    closing.join(20)


def table(game: str, players: int):
    return resolve_table(get_game(game), players, None, {}, None, {}, {})


@pytest.mark.parametrize(
    "game, mode, players, count", [("chase-ace", Mode.HANDS, 8, 400_000), ("all-fours", Mode.GAMES, 2, 3_000)]
)
def test_a_cluster_run_equals_the_local_engine(cluster, game, mode, players, count):
    spec = get_game(game)
    with open_context(store=False) as context:
        local = run(spec, table(game, players), mode, 21, count, context)
    with open_context(store=False, cluster=cluster.scheduler_address) as context:
        remote = run(spec, table(game, players), mode, 21, count, context)
    assert remote.count == count
    assert np.array_equal(remote.sums, local.sums)


def test_a_cluster_sweep_equals_the_local_sweep(cluster):
    spec = get_game("chase-ace")
    tab = table("chase-ace", 5)
    values = field_range(spec, "threshold=5:9")

    def swept(context):
        return sweep(spec, 5, tab.rules, tab.policy, Mode.HANDS, 4, values, 2, 20_000, context.quiet())

    with open_context(store=False, threads=1) as context:
        local = swept(context)
    with open_context(store=False, cluster=cluster.scheduler_address) as context:
        remote = swept(context)
    assert remote.run.sizes == local.run.sizes
    assert all(
        np.array_equal(a, b)
        for arm_a, arm_b in zip(remote.run.batch_sums, local.run.batch_sums)
        for a, b in zip(arm_a, arm_b)
    )
    assert remote.records() == local.records()


def test_a_worker_killed_mid_run_does_not_change_the_result():
    spec = get_game("chase-ace")
    tab = table("chase-ace", 8)
    count = 4_000_000
    with open_context(store=False) as context:
        local = run(spec, tab, Mode.HANDS, 8, count, context)
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0", silence_logs=50
    ) as doomed:
        with open_context(store=False, cluster=doomed.scheduler_address) as context:
            client = context.executor.client
            pids = list(client.run(os.getpid).values())
            done = [0]
            killed = []

            def progress(items: int) -> None:
                done[0] += items
                if not killed and done[0] >= count // 4:
                    os.kill(pids[0], signal.SIGKILL)
                    killed.append(time.monotonic())

            sums = play_jobs(spec, [(tab.rules, tab.policy, 0, count)], 8, Mode.HANDS, 8, context, progress=progress)[0]
    assert killed, "no worker was killed"
    assert np.array_equal(sums, local.sums)


def test_cluster_pieces_go_to_the_store(cluster, tmp_path, monkeypatch):
    spec = get_game("fan-tan")
    tab = table("fan-tan", 4)
    path = tmp_path / "store.sqlite"
    with open_context(store=path, cluster=cluster.scheduler_address) as context:
        remote = run(spec, tab, Mode.HANDS, 2, 30_000, context)

    def no_kernel(*args, **kwargs):
        raise AssertionError("the kernel was called")

    monkeypatch.setattr(engine, "play_jobs", no_kernel)
    with open_context(store=path) as context:
        stored = run(spec, tab, Mode.HANDS, 2, 30_000, context)
    assert np.array_equal(stored.sums, remote.sums)


# before the tests of bad addresses: a connection they gave up on may still hold Dask's client
# machinery for a while, and this test needs the shared cluster to answer at once
def test_a_worker_with_other_kernel_sources_refuses_the_work(cluster, monkeypatch):
    from analyzer.run.execution import ClusterError

    spec = get_game("chase-ace")
    monkeypatch.setitem(engine._KERNEL_HASHES, spec.name, "0" * 16)  # this process: another version
    with pytest.raises(ClusterError) as refused:
        with open_context(store=False, cluster=cluster.scheduler_address) as context:
            run(spec, table("chase-ace", 4), Mode.HANDS, 1, 5_000, context)
    assert str(refused.value).startswith("the cluster could not play the hands: the cluster worker on ")
    assert "has other chase-ace kernel sources than this machine" in str(refused.value)


def test_local_n_starts_and_stops_its_own_cluster():
    spec = get_game("chase-ace")
    with open_context(store=False) as context:
        local = run(spec, table("chase-ace", 4), Mode.HANDS, 6, 50_000, context)
    with open_context(store=False, cluster="local:2") as context:
        assert context.executor.slots == 2
        remote = run(spec, table("chase-ace", 4), Mode.HANDS, 6, 50_000, context)
    assert np.array_equal(remote.sums, local.sums)
    assert local.cluster is None
    assert (remote.cluster["workers"], remote.cluster["threads"]) == (2, 2)
    assert remote.cluster["scheduler"].startswith("tcp://")


def test_the_run_line_and_json_say_the_hands_ran_on_a_cluster(cli):
    shown = cli("chase-ace", "--players", "4", "--hands", "20000", "--cluster", "local:2", "--no-store", "--json")
    assert shown.exit_code == 0, shown.output
    found = json.loads(shown.stdout)["cluster"]
    assert (found["workers"], found["threads"]) == (2, 2)
    text = cli("chase-ace", "--players", "4", "--hands", "20000", "--cluster", "local:2", "--no-store")
    assert "on a Dask cluster of 2 workers, 2 threads" in text.stdout


USAGE = "--cluster takes local:N (N worker processes) or a scheduler address like tcp://host:8786 (tcp:// or tls://)"


@pytest.mark.parametrize(
    "address, sentence",
    [
        ("local:x", f"{USAGE}, not 'local:x'."),
        ("local:0", "--cluster local:N takes 1 to 256 workers, not 0."),
        ("", f"{USAGE}, not ''."),
        ("ucx://127.0.0.1:1", f"{USAGE}, not 'ucx://127.0.0.1:1'."),
        ("inproc://x", f"{USAGE}, not 'inproc://x'."),
        ("host:0", f"{USAGE}, not 'host:0'."),
        ("tcp://127.0.0.1:9", "could not reach the Dask scheduler at tcp://127.0.0.1:9: "),
        (
            "tls://127.0.0.1:1",
            "could not reach the Dask scheduler at tls://127.0.0.1:1: tls:// needs a certificate and "
            "key in Dask's configuration (distributed.comm.tls).",
        ),
    ],
)
def test_a_bad_cluster_address_is_one_sentence(address, sentence):
    with pytest.raises(ValueError) as refused:
        with open_context(store=False, cluster=address):
            pass
    assert str(refused.value).startswith(sentence) and str(refused.value).endswith(".")
    assert "\n" not in str(refused.value)


@pytest.fixture
def listener():
    """A local port that accepts connections and then either sends a banner, as an SSH
    server does, or says nothing at all."""
    import socket
    import threading

    servers, threads, connections = [], [], []

    def serve(server, banner):
        while True:
            try:
                connection, _ = server.accept()
            except OSError:
                return
            connections.append(connection)
            if banner:
                connection.sendall(banner)

    def start(banner: bytes | None) -> str:
        server = socket.socket()
        server.bind(("127.0.0.1", 0))
        server.listen()
        servers.append(server)
        threads.append(threading.Thread(target=serve, args=(server, banner), daemon=True))
        threads[-1].start()
        return f"tcp://127.0.0.1:{server.getsockname()[1]}"

    yield start
    for item in servers + connections:
        item.close()


@pytest.mark.parametrize(
    "banner, reason",
    [
        (b"SSH-2.0-OpenSSH_9.2p1 Debian-2\r\n" * 3, "what answers there is not a Dask scheduler ("),
        (None, ""),  # a port that accepts and never answers
    ],
)
def test_an_address_that_does_not_answer_as_dask_is_one_sentence_within_seconds(listener, banner, reason):
    address = listener(banner)
    start = time.monotonic()
    with pytest.raises(ValueError) as refused:
        with open_context(store=False, cluster=address):
            pass
    took = time.monotonic() - start
    sentence = str(refused.value)
    assert sentence.startswith(f"could not reach the Dask scheduler at {address}: {reason}"), sentence
    assert sentence.endswith(".") and "\n" not in sentence
    assert took < 12, took
