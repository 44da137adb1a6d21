"""A small shop: catalogue prices, orders and their database."""
