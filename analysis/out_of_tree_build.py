"""The package's build backend (pyproject.toml, build-system): setuptools' own, with its build
and egg-info directories in a temporary folder instead of the source tree, so that
`pip install ./analysis` leaves analysis/ as it found it (setuptools alone left build/ and
wormnet_analysis.egg-info there, untracked). The folder is removed when the build ends."""

import atexit
import shutil
import tempfile

from setuptools import build_meta as _setuptools
from setuptools import dist as _dist

_WORK = tempfile.mkdtemp(prefix="wormnet-analysis-build-")
atexit.register(shutil.rmtree, _WORK, True)
_parse_config_files = _dist.Distribution.parse_config_files


def _out_of_tree(self, *args, **kwargs):
    """After setuptools read its configuration: build and egg-info in the temporary folder."""
    _parse_config_files(self, *args, **kwargs)
    self.command_options.setdefault("build", {})["build_base"] = ("out_of_tree_build", _WORK)
    self.command_options.setdefault("egg_info", {})["egg_base"] = ("out_of_tree_build", _WORK)


_dist.Distribution.parse_config_files = _out_of_tree

get_requires_for_build_wheel = _setuptools.get_requires_for_build_wheel
get_requires_for_build_sdist = _setuptools.get_requires_for_build_sdist
prepare_metadata_for_build_wheel = _setuptools.prepare_metadata_for_build_wheel
build_wheel = _setuptools.build_wheel
build_sdist = _setuptools.build_sdist
