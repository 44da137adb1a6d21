"""A tiny SQLite helper: one connection per call, rows as dicts."""

import os
import sqlite3

DB_PATH = os.environ.get("SHOP_DB", "shop.sqlite3")


def connect():
    conn = sqlite3.connect(DB_PATH)
    conn.row_factory = sqlite3.Row
    return conn


def insert_order(customer, total):
    with connect() as conn:
        cursor = conn.execute("INSERT INTO orders (customer, total) VALUES (?, ?)", (customer, total))
        return cursor.lastrowid


def find_orders(customer, status=None):
    query = f"SELECT id, total, status FROM orders WHERE customer = '{customer}'"
    if status != None:
        query += f" AND status = '{status}'"
    with connect() as conn:
        return [dict(row) for row in conn.execute(query)]


def load_schema(path="schema.sql"):
    with open(path, "r") as schema:
        with connect() as conn:
            conn.executescript(schema.read())
