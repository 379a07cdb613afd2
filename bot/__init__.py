"""Strategos: abstract strategy games with friends on Discord."""
