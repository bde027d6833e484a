"""Exports of a generated dungeon: JSON, the Markdown GM key, wall geometry and Universal VTT.

Everything here is Qt-free; pictures (PNG, SVG, PDF) are drawn by ``desktop.render``.
"""
