"""Colour scales of the channel heatmaps: from zero to the largest value (absolute), or a
diverging scale around a reference value (relative: the mean of the working channels, which
is the perfect load when the values are a minimal routing's gamma_c), chosen automatically
when the values lie in a narrow band that an absolute scale would draw in one colour (HT_8
under double-xy-dateline: gamma_c from 1360 to 1364). The scale is always taken over every
working channel of the network, not only the ones drawn: a slice is coloured, and its maximum
told, on the whole network's scale.

>>> s = choose_scale(np.array([1360.0, 1362.0, 1364.0]))
>>> s.kind, s.reference, s.norm.vmin, s.norm.vmax
('relative', 1362.0, 1360.0, 1364.0)
>>> choose_scale(np.array([0.0, 5.0, 10.0])).kind
'absolute'
"""

from __future__ import annotations

import dataclasses

import numpy as np
from matplotlib.colors import Normalize

#: "auto" draws a relative scale when (max - min) is below this fraction of max.
NARROW = 0.1
ABSOLUTE_CMAP = "YlOrRd"
RELATIVE_CMAP = "RdBu_r"
KINDS = ("auto", "absolute", "relative")


@dataclasses.dataclass
class Scale:
    kind: str  #: "absolute" or "relative"
    norm: Normalize
    cmap: str
    reference: float | None  #: relative: the value at the scale's centre
    text: str  #: what the colour bar's label adds, e.g. "around the mean 1362"


def choose_scale(values: np.ndarray, kind: str = "auto", vmin: float | None = None,
                 vmax: float | None = None, reference: float | None = None) -> Scale:
    """The scale of `values` (the working channels' values, the whole network). vmin/vmax fix
    the ends (absolute: default 0 and the largest value; relative: default symmetric around
    the reference); `reference` is the centre of a relative scale (default: the mean).
    ValueError for an unknown kind or vmin >= vmax."""
    if kind not in KINDS:
        raise ValueError(f"scale {kind!r}: one of {', '.join(KINDS)}")
    v = np.asarray(values, dtype=float)
    v = v[np.isfinite(v)]
    lo = float(v.min()) if len(v) else 0.0
    hi = float(v.max()) if len(v) else 1.0
    if vmin is not None and vmax is not None and not vmin < vmax:
        raise ValueError(f"--vmin {vmin:g} must be below --vmax {vmax:g}")
    if kind == "auto":
        narrow = hi > 0 and hi - lo < NARROW * hi
        kind = "relative" if narrow and vmin is None and vmax is None else "absolute"
    if kind == "absolute":
        bottom = 0.0 if vmin is None else vmin
        top = (hi if hi > bottom else bottom + 1.0) if vmax is None else vmax
        if not bottom < top:
            raise ValueError(f"the scale's ends {bottom:g} and {top:g}: --vmin below --vmax")
        return Scale("absolute", Normalize(bottom, top), ABSOLUTE_CMAP, None, "")
    ref = float(np.mean(v)) if reference is None and len(v) else float(reference or 0.0)
    half = max(abs(hi - ref), abs(ref - lo))
    if half == 0:
        half = max(abs(ref) * 1e-3, 1e-12)  # all equal: a visible band around them
    bottom = ref - half if vmin is None else vmin
    top = ref + half if vmax is None else vmax
    if not bottom < top:
        raise ValueError(f"the scale's ends {bottom:g} and {top:g}: --vmin below --vmax")
    return Scale("relative", Normalize(bottom, top), RELATIVE_CMAP, ref,
                 f"relative: around the mean {ref:.6g} (blue below, red above)")
