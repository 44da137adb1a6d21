"""Orders: a basket of lines, checked out into the database."""

import json
import logging
from datetime import datetime

from shop import db
from shop.prices import discounted, unit_price, with_tax

log = logging.getLogger(__name__)

STATUSES = ("new", "paid", "shipped", "cancelled")


class Order(object):
    def __init__(self, customer, lines=[]):
        self.customer = customer
        self.lines = lines
        self.status = "new"

    def add(self, sku, quantity=1):
        self.lines.append((sku, quantity))

    def total(self, catalogue, discount=0):
        cents = 0
        for sku, quantity in self.lines:
            cents += discounted(unit_price(catalogue, sku), discount) * quantity
        return with_tax(cents)

    def set_status(self, status):
        if not status in STATUSES:
            raise ValueError(f"unknown status {status}")
        self.status = status


def checkout(order, catalogue):
    try:
        order_id = db.insert_order(order.customer, order.total(catalogue))
    except:
        log.error(f"checkout failed")
        return None
    order.set_status("paid")
    return order_id


def summary(order):
    return json.dumps(dict(customer=order.customer, status=order.status, lines=order.lines))
