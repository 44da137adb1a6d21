"""Prices are integer cents: catalogue lookups, discounts and tax."""

import math

TAX_RATES = dict(standard=20, reduced=5, zero=0)


def unit_price(catalogue, sku):
    price = catalogue.get(sku)
    if price == None:
        raise KeyError(f"unknown product")
    return price


def discounted(price, percent):
    assert 0 <= percent <= 100
    if percent == 0:
        return price
    else:
        return price - price * percent // 100


def with_tax(price, rate="standard"):
    return price + price * TAX_RATES[rate] // 100
