"""Readers for the files of `wormnet tables` (one routing table: docs/tables.md, "Table file
layout") and `wormnet tables-study` (the Angara paper's Figure 5 study).

A table file names its torus; its network is rebuilt from the spec with wormnet's channel
numbering, so `loads` (gamma_c) index by the same channel ids as a result file's arrays.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from ._h5 import FileError, attrs, open_h5, read_table
from .network import Network, from_spec, read_faults

TABLE_CONTENT = "angara-routing-table"
STUDY_CONTENT = "angara-table-study"
TABLE_SCHEMA_VERSION = 1


@dataclasses.dataclass
class RoutingTable:
    """A routing-table file: its torus, gamma_c per channel and the stored metrics."""

    path: str
    root: dict  #: root attributes (topology, algorithm, status, ...)
    loads: np.ndarray  #: gamma_c per channel id: routes over all ordered pairs
    metrics: dict  #: pi, sigma4, min_load, mean_load, perfect_load, saturation_rate, ...
    proof: dict  #: complete, minimal, angara_rules, deadlock_free (0/1), ...
    generation: dict  #: seconds, cpu_seconds, ...
    network: Network

    @property
    def algorithm(self) -> str:
        return str(self.root.get("algorithm", "?"))

    @property
    def proven(self) -> bool:
        """Complete, minimal, within the Angara rules and deadlock-free."""
        keys = ("complete", "minimal", "angara_rules", "deadlock_free")
        return all(int(self.proof.get(k, 0)) == 1 for k in keys)

    def channels_frame(self):
        """One row per channel: its ends and port (Network.channels_frame) and `load`."""
        frame = self.network.channels_frame()
        frame["load"] = self.loads
        return frame


def _check_version(path: str, a: dict) -> None:
    if a.get("table_schema_version") != TABLE_SCHEMA_VERSION:
        raise FileError(
            f"{path}: table_schema_version {a.get('table_schema_version')!r}; this reader "
            f"knows {TABLE_SCHEMA_VERSION}"
        )


def load_table(path: str) -> RoutingTable:
    """Reads a `wormnet tables` file (FileError if it is not one this reader knows)."""
    with open_h5(path) as f:
        a = attrs(f)
        if a.get("content") != TABLE_CONTENT:
            raise FileError(f"{path}: not a wormnet routing-table file")
        _check_version(path, a)
        net = read_faults(f, from_spec(str(a["topology"])))
        loads = f["loads"][()]
        if loads.shape != (net.channels,):
            raise FileError(
                f"{path}: {loads.shape[0]} channel loads for {net.spec}'s {net.channels} channels"
            )
        return RoutingTable(
            path=path,
            root=a,
            loads=loads,
            metrics=attrs(f["metrics"]),
            proof=attrs(f["proof"]),
            generation=attrs(f["generation"]) if "generation" in f else {},
            network=net,
        )


def load_study(path: str) -> tuple[dict, dict]:
    """A `wormnet tables-study` file: the systems table (column -> numpy array, one row per
    torus studied) and the root attributes (algorithms, ranks, seed, status, ...)."""
    with open_h5(path) as f:
        a = attrs(f)
        if a.get("content") != STUDY_CONTENT:
            raise FileError(f"{path}: not a wormnet tables-study file")
        if a.get("schema_version") != 1:
            raise FileError(f"{path}: schema_version {a.get('schema_version')!r}; this reader "
                            "knows 1")
        _check_version(path, a)
        data, _ = read_table(f["systems"])
    return data, a


def study_frame(path: str):
    """The systems table of a study file as a DataFrame."""
    import pandas as pd

    return pd.DataFrame(load_study(path)[0])
