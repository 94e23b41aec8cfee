# Aubade: the two commands are `make run` and `make test`.
#   make run [MUSIC="file.mp3 folder/ list.m3u"]   build (release) and play; a demo playlist without MUSIC
#   make test                                      build and run all tests in a private audio session
#                                                  (PulseAudio), then the audio-session tests on PipeWire
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

# The integration tests of the audio session (route changes, interruptions, `aubade monitor`
# and `aubade route`, and the check that the harness runs the server it claims to), and the
# output engine's PipeWire facts (skipped on PulseAudio): they run a second time on PipeWire,
# the sound server of current desktops.
PIPEWIRE_TESTS := IntegrationTests\.(SoundServerTests|RouteChangeTests|InterruptionTests|AudioSessionCommandTests)|AudioOutputTests\.PipeWireFactsTests

# Two runs of the tests built once: everything on PulseAudio (with module-role-cork), then the
# audio-session tests on PipeWire (pipewire + wireplumber + pipewire-pulse). Both always run;
# each prints swift test's own summary; make test fails if either fails.
# Not --parallel: the integration tests start the daemon, whose bus name is fixed, so they
# must run one at a time.
test: deps
	swift build --build-tests $(SWIFT_FLAGS)
	@pulse=0; pipewire=0; \
	echo "=== make test: all tests, on PulseAudio"; \
	scripts/audio-session --server pulseaudio -- swift test --skip-build $(SWIFT_FLAGS) || pulse=$$?; \
	echo "=== make test: audio-session tests, on PipeWire"; \
	scripts/audio-session --server pipewire -- swift test --skip-build $(SWIFT_FLAGS) --filter '$(PIPEWIRE_TESTS)' || pipewire=$$?; \
	echo "=== make test: PulseAudio run $$( ((pulse)) && echo "FAILED (exit $$pulse)" || echo passed)," \
	     "PipeWire run $$( ((pipewire)) && echo "FAILED (exit $$pipewire)" || echo passed)"; \
	((pulse == 0 && pipewire == 0))

# The audio-session benchmark (issue 3): unplug → Paused, our audio reaching the other sink,
# cork request → Paused, position lost across an interruption (and mpv beside us when installed).
# Prints BENCHMARK lines and writes .build/bench/audio-session.{json,md}; PulseAudio, then PipeWire.
# AUBADE_BENCH_RUNS=N sets the repetitions (default 10). The anchored filter leaves out
# IntegrationTests.LatencyBenchmarkTests, which runs in make test.
bench: deps
	swift build --build-tests $(SWIFT_FLAGS)
	@rm -f .build/bench/audio-session.json .build/bench/audio-session.md; status=0; \
	AUBADE_BENCH=1 AUBADE_BENCH_DIR="$(CURDIR)/.build/bench" scripts/audio-session --server pulseaudio -- \
	    swift test --skip-build $(SWIFT_FLAGS) --filter '^BenchmarkTests\.' || status=$$?; \
	AUBADE_BENCH=1 AUBADE_BENCH_DIR="$(CURDIR)/.build/bench" scripts/audio-session --server pipewire -- \
	    swift test --skip-build $(SWIFT_FLAGS) --filter '^BenchmarkTests\.' || status=$$?; \
	exit $$status

run: release
	AUBADE_BINARY="$$(swift build -c release $(SWIFT_FLAGS) --show-bin-path)/aubade" scripts/serve $(MUSIC)

clean:
	swift package clean $(SWIFT_FLAGS)
