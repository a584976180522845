# BPE Explorer developer commands.
#   make run    - start the app on http://localhost:8501
#   make test   - run the whole test suite (unit, AppTest and browser tests)
#   make bench  - run the benchmarks
#   make loadtest - 10 concurrent browser sessions + single-user latency against a local server
#                   (not part of make test; needs /usr/bin/chromium)
# The virtualenv lives in .venv; pip only reruns when a requirements file changes
# (tracked by stamp files inside .venv, so deleting .venv resets everything).

PYTHON ?= python3
VENV   := .venv
VPY    := $(VENV)/bin/python
RUN_STAMP  := $(VENV)/requirements.stamp
TEST_STAMP := $(VENV)/requirements-test.stamp

.PHONY: run test bench loadtest venv clean-venv

$(VENV)/pyvenv.cfg:
	$(PYTHON) -m venv $(VENV)

venv: $(VENV)/pyvenv.cfg

$(RUN_STAMP): requirements.txt | $(VENV)/pyvenv.cfg
	$(VPY) -m pip install --disable-pip-version-check -q -r requirements.txt
	touch $@

$(TEST_STAMP): requirements-test.txt requirements.txt | $(VENV)/pyvenv.cfg
	$(VPY) -m pip install --disable-pip-version-check -q -r requirements-test.txt
	touch $@

run: $(RUN_STAMP)
	$(VENV)/bin/streamlit run app.py --server.port 8501 --server.address localhost

test: $(TEST_STAMP)
	$(VPY) -m pytest -q

bench: $(TEST_STAMP)
	$(VPY) -m bench

loadtest: $(TEST_STAMP)
	$(VPY) -m bench.loadtest

clean-venv:
	rm -rf $(VENV)
