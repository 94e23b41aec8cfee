# Aubade: the two commands are `make run` and `make test`.
#   make run [MUSIC="file.mp3 folder/ list.m3u"]   build (release) and play; a demo playlist without MUSIC
#   make test                                      build and run all tests in a private audio session
# SWIFT_FLAGS is passed to every swift build/test (e.g. SWIFT_FLAGS="--build-path /tmp/b").

SHELL := /bin/bash
# The toolchain lives in /opt/swift on our machines and is not always on PATH; appended, so a
# swift already on PATH wins.
export PATH := $(PATH):/opt/swift/usr/bin

SWIFT_FLAGS ?=
MUSIC ?=

.PHONY: all deps build release test bench run clean

all: build

deps:
	scripts/install-deps

build: deps
	swift build $(SWIFT_FLAGS)

release: deps
	swift build -c release $(SWIFT_FLAGS)

# Not --parallel: the integration tests start the daemon, whose bus name is fixed, so they
# must run one at a time. swift test's own summary and exit code are the result.
test: deps
	swift build --build-tests $(SWIFT_FLAGS)
	scripts/audio-session -- swift test $(SWIFT_FLAGS)

# The audio-session benchmark (issue 3): unplug → Paused, our audio reaching the other sink,
# cork request → Paused, position lost across an interruption (and mpv beside us when installed).
# Prints BENCHMARK lines and writes .build/bench/audio-session.{json,md}; PulseAudio, then PipeWire.
bench: deps
	swift build --build-tests $(SWIFT_FLAGS)
	@rm -f .build/bench/audio-session.json .build/bench/audio-session.md; status=0; \
	AUBADE_BENCH=1 AUBADE_BENCH_DIR="$(CURDIR)/.build/bench" scripts/audio-session --server pulseaudio -- \
	    swift test --skip-build $(SWIFT_FLAGS) --filter BenchmarkTests || status=$$?; \
	AUBADE_BENCH=1 AUBADE_BENCH_DIR="$(CURDIR)/.build/bench" scripts/audio-session --server pipewire -- \
	    swift test --skip-build $(SWIFT_FLAGS) --filter BenchmarkTests || status=$$?; \
	exit $$status

run: release
	AUBADE_BINARY="$$(swift build -c release $(SWIFT_FLAGS) --show-bin-path)/aubade" scripts/serve $(MUSIC)

clean:
	swift package clean $(SWIFT_FLAGS)
