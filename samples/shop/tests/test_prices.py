from shop.prices import discounted, unit_price, with_tax


def test_discount_rounds_down():
    assert discounted(999, 10) == 900


def test_tax():
    assert with_tax(1000) == 1200
    assert with_tax(1000, "zero") == 1000


def test_unknown_product():
    try:
        unit_price({}, "nope")
    except KeyError:
        return
    raise AssertionError("expected KeyError")
