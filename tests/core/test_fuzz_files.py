"""Requirement 3 of issue 16: thousands of mutated files of every kind a user hands the
program, fed to the loaders the commands use (:data:`fuyuki.cli.files.KINDS`); any exception
that is not one of the project's typed errors is a traceback a user would see, and fails.

The default run is modest (``FUYUKI_FUZZ_PER_KIND`` mutants per kind, 200); the ``slow``
test runs 2,000 per kind with another seed."""

import os

import pytest

from tests.core.fuzz import fuzz

PER_KIND = int(os.environ.get("FUYUKI_FUZZ_PER_KIND", "200"))


def _check(report, per_kind):
    assert all(n == per_kind + 2 for n in report.inputs.values()), report.inputs
    assert len(report.inputs) == 10
    assert report.failures == [], "\n".join(report.failures[:30])


def test_mutated_files_give_typed_errors_only(tmp_path):
    report = fuzz(tmp_path, PER_KIND, seed=16)
    _check(report, PER_KIND)
    # the mutants are not all refused, nor all accepted: the mutator reaches both paths
    for kind, n in report.inputs.items():
        assert 0 < report.refused.get(kind, 0) < n or kind == "war_log", (kind, report.refused)


@pytest.mark.slow
def test_many_more_mutated_files(tmp_path):
    report = fuzz(tmp_path, 2000, seed=1616)
    _check(report, 2000)
