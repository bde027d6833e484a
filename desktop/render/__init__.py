"""Drawing dungeon maps with Qt: one painter for the screen map and the PNG, SVG and PDF exports."""
