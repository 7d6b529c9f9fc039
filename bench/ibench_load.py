#!/usr/bin/env python3
"""The Insert Benchmark's load step (l.i0) as its Python client runs it.

    ibench_load.py --dsn DSN --clients N --rows R [--rows-per-commit 100]

N processes, one per table pi1 .. piN, each with its own connection in
autocommit (psycopg2, as the benchmark's client), insert R rows into its
table in one multi-row INSERT of --rows-per-commit rows at a time, the
values made by the client as the benchmark makes them: cashregisterid
below 1000, customerid below 100000, productid below 10000, price below
500 (written with two decimals), the batch's local time to the second,
data of 10 to 20 characters of which 50% of three quarters are random
base64 and the rest 'a'; transactionid from the table's serial.  Prints
the inserts per second of all processes together, from the first start
to the last end.
"""
import argparse
import base64
import multiprocessing
import os
import random
import time

import psycopg2

COLUMNS = "dateandtime, cashregisterid, customerid, productid, price, data"


def rows_sql(n, pool):
    when = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime())
    out = []
    for _ in range(n):
        length = random.randrange(10, 21)
        rand_len = int(length * 0.75 * 50 / 100)
        start = random.randrange(0, len(pool) - rand_len)
        data = "a" * (length - rand_len) + pool[start:start + rand_len]
        out.append("('%s',%d,%d,%d,%.2f,'%s')" % (
            when, random.randrange(0, 1000), random.randrange(0, 100000),
            random.randrange(0, 10000), random.randrange(0, 500), data))
    return ",\n".join(out)


def client(args, table, ready, go, done):
    random.seed(os.getpid())
    pool = base64.b64encode(os.urandom(1 << 20)).decode("ascii")
    conn = psycopg2.connect(args.dsn)
    conn.set_session(autocommit=True)
    cur = conn.cursor()
    ready.release()
    go.wait()
    left = args.rows
    while left > 0:
        n = min(args.rows_per_commit, left)
        cur.execute("insert into pi%d (%s) values %s" % (table, COLUMNS, rows_sql(n, pool)))
        left -= n
    conn.close()
    done.put(time.monotonic())


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dsn", required=True)
    parser.add_argument("--clients", type=int, required=True)
    parser.add_argument("--rows", type=int, required=True, help="rows per client")
    parser.add_argument("--rows-per-commit", type=int, default=100)
    args = parser.parse_args()
    ready = multiprocessing.Semaphore(0)
    go = multiprocessing.Event()
    done = multiprocessing.Queue()
    procs = [multiprocessing.Process(target=client, args=(args, t + 1, ready, go, done))
             for t in range(args.clients)]
    for p in procs:
        p.start()
    for _ in procs:
        ready.acquire()
    start = time.monotonic()
    go.set()
    ends = [done.get() for _ in procs]
    for p in procs:
        p.join()
        if p.exitcode != 0:
            raise SystemExit("a client failed")
    print("%.1f" % (args.clients * args.rows / (max(ends) - start)))


if __name__ == "__main__":
    main()
