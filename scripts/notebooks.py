#!/usr/bin/env python3
"""Runs every cell of each notebook named (nbclient, the python3 kernel) and fails on the first
cell that raises, so the notebooks in docs/ cannot rot. Nothing is written back."""

import os
import sys

import nbformat
from nbclient import NotebookClient


def main(paths: list) -> int:
    if not paths:
        print("usage: notebooks.py NOTEBOOK...", file=sys.stderr)
        return 2
    for path in paths:
        notebook = nbformat.read(path, as_version=4)
        # Cells read files relative to the notebook's folder, as Jupyter runs them.
        folder = os.path.dirname(os.path.abspath(path))
        NotebookClient(notebook, timeout=600, kernel_name="python3",
                       resources={"metadata": {"path": folder}}).execute()
        cells = sum(cell.cell_type == "code" for cell in notebook.cells)
        print(f"{path}: {cells} code cells ran")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
