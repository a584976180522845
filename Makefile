# BPE Explorer developer commands.
#   make run    - start the app on http://localhost:8501
#   make class  - the app for a class: every interface, PORT (8501); prints the address students type and a QR code
#   make test   - lint, then run the whole test suite (unit, AppTest and browser tests)
#   make lint   - ruff: lint and formatting (ruff.toml; `make format` rewrites the files); mypy: types of the engine,
#                 the live class, the job runner, what the pages share and the pages (setup.cfg's [mypy])
#   make bench  - run the benchmarks
#   make loadtest - 10 concurrent browser sessions + single-user latency against a local server
#   make classroom REPLICAS=2 - the app on REPLICAS processes behind nginx on every interface, PORT (8080)
#                   (foreground; Ctrl+C or SIGTERM stops every process; needs nginx, installed as root if missing)
#   make classroom-test - 30 simulated students (Streamlit's websocket protocol) through the balancer
#   make class-test STUDENTS=30 REPLICAS=2 - a live class through the balancer, replicas sharing Redis; its last line
#                   says who joined, votes counted once, p95 step seen, votes lost at a replica's restart
#   make hostile-test STUDENTS=30 REPLICAS=2 - a live class beside a hostile visitor (the 100,000-merge link in 3
#                   tabs, a backtracking pattern, five 60 MB tokenizers, a join flood) and a victim (first pages and
#                   trainings of its own); its last line says the class's p95 step seen, votes counted once, peak
#                   server memory, hostile actions answered in words, victims answered in X s (p95)
#   make mutants - mutation testing of bpe_core and the pure views (slow; see bench/mutants.py)
#                   (not part of make test; needs /usr/bin/chromium)
# The virtualenv lives in .venv; pip only reruns when a requirements file changes
# (tracked by stamp files inside .venv, so deleting .venv resets everything).

PYTHON ?= python3
VENV   := .venv
VPY    := $(VENV)/bin/python
RUN_STAMP  := $(VENV)/requirements.stamp
TEST_STAMP := $(VENV)/requirements-test.stamp

.PHONY: run class test lint format bench loadtest classroom classroom-test class-test hostile-test mutants venv clean-venv

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
	$(VPY) deploy/start_app.py --server.port 8501 --server.address localhost

# A class on the room's network: every interface; the students' address and its QR code are printed first.
class: PORT ?= 8501
class: $(RUN_STAMP)
	$(VPY) deploy/serve_class.py --port $(PORT)

test: lint
	$(VPY) -m pytest -q

lint: $(TEST_STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy

format: $(TEST_STAMP)
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

bench: $(TEST_STAMP)
	$(VPY) -m bench
	$(VPY) -m bench.whole_process
	$(VPY) -m bench.counting
	$(VPY) -m bench.tiktoken_speed
	$(VPY) -m bench.open_models
	$(VPY) -m bench.models_2026
	$(VPY) -m bench.premium

loadtest: $(TEST_STAMP)
	$(VPY) -m bench.loadtest

REPLICAS ?= 2
STUDENTS ?= 30
NGINX    := /usr/sbin/nginx
REDIS    := /usr/bin/redis-server

# Debian's nginx and redis-server, as CI installs Chromium: only as root, otherwise say what to run.
$(NGINX) $(REDIS):
	@[ "$$(id -u)" -eq 0 ] || { echo "$(notdir $@) is missing: sudo apt-get install $(notdir $@)"; exit 1; }
	DEBIAN_FRONTEND=noninteractive apt-get update
	DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y $(notdir $@)

classroom: PORT ?= 8080
classroom: $(RUN_STAMP) | $(NGINX) $(REDIS)
	$(VPY) -m bench.classroom serve --replicas $(REPLICAS) --port $(PORT) --listen 0.0.0.0

classroom-test: $(TEST_STAMP) | $(NGINX)
	$(VPY) -m bench.classroom test --replicas $(REPLICAS) --students $(STUDENTS)

class-test: $(TEST_STAMP) | $(NGINX) $(REDIS)
	$(VPY) -m bench.classroom class --replicas $(REPLICAS) --students $(STUDENTS) --store redis

hostile-test: $(TEST_STAMP) | $(NGINX) $(REDIS)
	$(VPY) -m bench.classroom.hostile --replicas $(REPLICAS) --students $(STUDENTS)

mutants: $(TEST_STAMP)
	$(VPY) -m bench.mutants $(MUTANTS)

clean-venv:
	rm -rf $(VENV)
