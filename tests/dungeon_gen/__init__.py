"""Tests of the dungeon generator."""
