# roc-dash: `make run` starts the app on demo data, `make test` runs the quick tier of the tests
# (no servers, browsers or kernels: a few minutes), `make test-all` runs every test (what CI runs).
# Both work on a fresh Debian machine with only Python >= 3.11, make and apt.

PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8050
# Extra pytest arguments, e.g. `make test PYTEST_ARGS="-k core"`.
# The quick tier: what tests/conftest.py does not mark slow (servers, browsers, kernels, Spark).
QUICK := -m "not slow" -n auto
PYTEST_ARGS ?=
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: run test test-all browser-deps java-deps nginx-deps redis-deps node-deps lint bench clean

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

# Re-install only when the package metadata changes.
$(VENV)/.installed-app: pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e '.[test]'
	touch $@ $(VENV)/.installed-app

run: $(VENV)/.installed-app
	$(VENV)/bin/roc-dash serve --host $(HOST) --port $(PORT)

# Debian's chromium and chromium-driver, for the dash_duo browser tests.
browser-deps:
	@if command -v chromium >/dev/null && command -v chromedriver >/dev/null; then \
		echo "chromium and chromedriver present"; \
	else \
		$(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq chromium chromium-driver; \
	fi

# Java 17+ (Debian's default-jre-headless) for the Spark engine's test (pyspark runs on a JVM).
java-deps:
	@if java -version 2>&1 | grep -Eq 'version "(1[7-9]|[2-9][0-9])'; then \
		echo "java 17+ present"; \
	else \
		$(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq default-jre-headless; \
	fi

# nginx, for tests/hostile/test_nginx.py: deploy/nginx.conf in front of the real gunicorn.
nginx-deps:
	@if command -v nginx >/dev/null || [ -x /usr/sbin/nginx ]; then \
		echo "nginx present"; \
	else \
		$(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq nginx-light; \
	fi

# redis-server, for the replicas' shared state (tests/replicas/, tests/replicas/test_shared_state.py
# start their own on a free port: nothing runs as a service).
redis-deps:
	@if command -v redis-server >/dev/null || [ -x /usr/bin/redis-server ]; then \
		echo "redis-server present"; \
	else \
		$(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq redis-server; \
	fi

# node (Debian's nodejs), for tests/unit/app/test_plotly_keep.py: the page's plotly_keep.js
# run on the app's own figures outside the browser.
node-deps:
	@if command -v node >/dev/null || command -v nodejs >/dev/null; then \
		echo "node present"; \
	else \
		$(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq nodejs; \
	fi

# The quick tier: the test extra only, no Chromium, Java or nginx needed.
test: $(VENV)/.installed-test
	$(PY) -m pytest $(QUICK) $(PYTEST_ARGS)

# Every test, browsers, servers, kernels and Spark included (installs what they need): the quick
# tier in parallel, then the slow tier one test at a time (its servers and browsers use fixed
# ports), with its 25 slowest tests listed.
test-all: $(VENV)/.installed-test browser-deps java-deps nginx-deps redis-deps node-deps
	$(VENV)/bin/lint-imports --no-cache
	$(PY) -m pytest $(QUICK) $(PYTEST_ARGS)
	$(PY) -m pytest --headless -m slow --durations=25 $(PYTEST_ARGS)

# ruff, and the architecture's import contracts (.importlinter)
lint: $(VENV)/.installed-test
	$(VENV)/bin/ruff check .
	$(VENV)/bin/lint-imports --no-cache

bench: $(VENV)/.installed-test
	$(PY) bench/bench_core.py
	$(PY) bench/bench_app.py
	$(PY) bench/bench_engines.py --rows 10000000
	$(PY) bench/bench_io.py --bombs

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis build *.egg-info
