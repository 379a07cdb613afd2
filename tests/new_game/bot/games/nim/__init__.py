"""Nim: three heaps of counters; take from one heap at a time; whoever takes the last counter wins."""
