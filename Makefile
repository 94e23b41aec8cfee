# Aubade: the two commands are `make run` and `make test`.
#   make run [MUSIC="file.mp3 folder/ list.m3u"]   build (release) and play; a demo playlist without MUSIC
#   make check                                     the quick inner loop: unit tests and in-process MPRIS tests
#   make test                                      build and run all tests, each in a private audio session:
#                                                  PulseAudio, PipeWire, then under TSan and ASan
#   make install [PREFIX=…] / make uninstall       the binary and its FFmpeg helper, the systemd user unit,
#                                                  D-Bus activation
# SWIFT_FLAGS is passed to every swift build/test (e.g. SWIFT_FLAGS="--build-path /tmp/b").

SHELL := /bin/bash
# The toolchain lives in /opt/swift on our machines and is not always on PATH; appended, so a
# swift already on PATH wins.
export PATH := $(PATH):/opt/swift/usr/bin

SWIFT_FLAGS ?=
# Release builds (make release, run, install, bench) link the Swift runtime statically: only
# the parts used are in the binary, and a daemon playing one local MP3 peaks at 18.2 MB
# resident instead of 21.3 MB (the shared libswiftCore and libFoundationEssentials alone were
# 8 MB of it; make bench BENCH=formats prints the breakdown). The binaries no longer need
# /opt/swift's libraries at run time either. RELEASE_FLAGS= builds them as before.
RELEASE_FLAGS ?= --static-swift-stdlib
# The release programs are built by product, the helper first: a bare `swift build -c release`
# builds every target, TestSupport too, whose XCTest a static release build cannot find ("no
# such module 'XCTest'": make run and make install failed on a fresh clone). make test builds
# `make release` too (scripts/run-tests, the release-build phase), so this cannot break unseen.
RELEASE_BUILD = swift build -c release $(RELEASE_FLAGS) $(SWIFT_FLAGS)
RELEASE_BIN = $$($(RELEASE_BUILD) --show-bin-path)
MUSIC ?=
# Tests run at once by make test and make check (swift test --parallel).
TEST_WORKERS ?= 6

.PHONY: all deps bench-deps build check release test bench run clean install uninstall

all: build

# Installs (as root) the Debian packages the build and the tests need, then checks, in seconds,
# that every program and Python module the tests use is there (scripts/check-needs, against
# Tests/needs.txt). AUBADE_INSTALL_DEPS=no: check only, never install (fails naming what is missing).
deps:
	@scripts/install-deps

# The same, with the benchmarks' peers (mpg123, mpv + mpv-mpris, mpd + mpDris2, mpc; Mopidy and
# Iris, Chromium and chromedriver for the web benchmark).
bench-deps:
	@scripts/install-deps --bench

build: deps
	swift build $(SWIFT_FLAGS)

release: deps
	$(RELEASE_BUILD) --product aubade-ffmpeg
	$(RELEASE_BUILD) --product aubade

# The quick inner loop (docs/TESTING.md): the unit tests of every module and the in-process MPRIS
# tests (MPRISService on a private bus with a host that runs the real PlayerState), in parallel;
# no daemon, no sanitizer. About 45 s after an incremental build.
check: deps
	swift build --build-tests $(SWIFT_FLAGS)
	swift test --skip-build --parallel --num-workers $(TEST_WORKERS) $(SWIFT_FLAGS) --skip '^(IntegrationTests|BenchmarkTests)\.'

# make test = .ci/run = scripts/run-tests, in timed phases (the script's header says which tests
# each runs and why): the debug build; every test on PulseAudio; every suite in which the sound
# server takes part on PipeWire; then, per SANITIZERS, the tests and the daemon built with
# --sanitize=thread (.build/tsan) and --sanitize=address (.build/asan), built in the background
# meanwhile. Each integration test starts its own private bus and sound server, so they run in
# parallel (swift test --parallel, TEST_WORKERS at a time). Every run happens; make test fails
# if any fails, leaves anything in its private TMPDIR, or gets a sanitizer report from any
# process (the daemons included); it ends with the phase table and a digest of what failed.
# SANITIZERS= (empty) skips the sanitizer builds and runs; TEST_FILTER=regex runs only those tests;
# PHASES="pulseaudio" runs only that server phase.
SANITIZERS ?= thread address
TEST_FILTER ?=
PHASES ?= pulseaudio pipewire
# no: leave out the release-build phase (make release, built in the background by make test).
RELEASE_CHECK ?= yes

test: deps
	@SWIFT_FLAGS='$(SWIFT_FLAGS)' SANITIZERS='$(SANITIZERS)' TEST_FILTER='$(TEST_FILTER)' TEST_WORKERS='$(TEST_WORKERS)' \
	    PHASES='$(PHASES)' RELEASE_CHECK='$(RELEASE_CHECK)' scripts/run-tests

# The audio-session benchmark (issue 3): unplug → Paused, our audio reaching the other sink,
# cork request → Paused, position lost across an interruption (and mpv beside us when installed).
# Prints BENCHMARK lines and writes .build/bench/audio-session.{json,md}; PulseAudio, then PipeWire.
# AUBADE_BENCH_RUNS=N sets the repetitions (default 10). The anchored filter leaves out
# IntegrationTests.LatencyBenchmarkTests, which runs in make test.
# Then the peer benchmark (issue 6): Aubade's RELEASE binary beside mpg123, mpv + mpv-mpris and
# mpd + mpDris2 (installed by bench-deps as root), on PulseAudio; AUBADE_BENCH_RUNS repetitions
# (default 5). Writes .build/bench/peers.{md,json}.
# Then the stream benchmark (internet radio): the same four players, Aubade's release binary
# again, on one icecast2 mount (icecast's default burst, icy-metaint 1400) fed in real time with
# 128 kbit/s tones, on PulseAudio: URL → first audio at the sink, CPU per minute and peak RSS
# while streaming, the new title's PropertiesChanged(Metadata) against its music at the sink,
# and an icecast2 restart: audio again, silence heard, whether each player comes back within
# 60 s. AUBADE_BENCH_RUNS repetitions (default 3); about 8 minutes each. Writes
# .build/bench/streams.{md,json} (needs icecast2: scripts/install-deps).
# Then the library benchmark (issue 12): Aubade's release binary on a generated library of 500
# four-minute tracks (MP3 CBR/VBR with and without Xing/Info headers, FLAC, Opus; about 3.9 GB,
# made once and cached in .build/bench/library), cold page cache (drop_caches as root): time
# and bytes read to queue the folder, first audio at the sink, the same after a restart (warm
# index), beside mpd's `mpc update --wait` on the same folder; decode CPU per minute of FLAC and
# Opus beside flac -d and opusdec; VmRSS with 10,000 mixed tracks queued. On PulseAudio; writes
# .build/bench/library.{md,json}. The first run spends a few minutes encoding the library.
# Then the guard benchmark (issue 13): mpv + mpv-mpris playing to the headphones, which go away
# (the null sink unloaded), once with Aubade's release `aubade guard` running, once without
# Aubade: unload → the guard's Pause call to mpv, its OtherPlayerDecision signal, mpv's
# PropertiesChanged(Paused) and its stream corked; how much of mpv's audio reached the speakers in
# the next 3 s, beside mpv alone (it plays on). AUBADE_BENCH_RUNS rounds (default 5), on
# PulseAudio, then PipeWire. Writes .build/bench/guard.{md,json}; needs mpv and mpv-mpris.
# Then the Snapcast benchmark (issue 22): Aubade's release binary with output = snapcast, and mpd
# with its fifo output, each feeding a private snapserver (48000:16:2, buffer 1000 ms) with two
# snapclients, kitchen and garden: PlayPause → silence in both rooms, the title change against
# when the rooms hear it, the rooms' offset, CPU per minute and peak RSS of the source (and of
# Aubade's control script). AUBADE_BENCH_RUNS rounds (default 3), on PulseAudio; about 3 minutes.
# Writes .build/bench/snapcast.{md,json}.
# Then the formats benchmark (issue 21): Aubade's release binary (and its FFmpeg helper) beside
# mpv + mpv-mpris, mpd + mpDris2 and mpg123: an AAC station (icecast2 fed by ffmpeg in real time,
# ICY titles, with a raw listener to say where icecast put each title) and an HLS station
# (`ffmpeg -f hls`, served locally): URL → first audio, CPU per minute and peak RSS of each
# player's process tree, the title's offset; 100 full-size M4A files (made once in
# .build/bench/m4a-library, ~390 MB): cold-cache queueing time and bytes read per file beside
# mpd's update, and playing one; only MP3s: peak RSS (with its breakdown by mapping) and start-up
# before this change (BASELINE, built once in .build/bench/baseline-REV as it was built then) and
# after; the helper crashing, stopped and allocating without end mid-track: the bus's worst reply.
# AUBADE_BENCH_FORMATS_SECONDS (30) of steady play per player. Writes .build/bench/formats.{md,json}.
# BASELINE: the commit before issue 21's work (the branch point of `ffmpeg`).
BASELINE ?= 6c4a7bb
# Then the MPD benchmark: Aubade's release binary serving a generated library of 100,000 tracks
# over the MPD protocol beside mpd 0.23 on the same library (made once in .build/bench/mpd-library
# from one short MP3 re-tagged with python3-mutagen, ~0.5 GB, half a minute to a few): the library
# built from cold (drop_caches), `update` after one file is retagged (and Aubade's inotify path),
# search/find/list/lsinfo/listallinfo over the protocol (AUBADE_BENCH_RUNS, default 5), peak RSS,
# the idle wake-up (MPRIS PlayPause or `pause` → `changed: player` at an idling client), starts
# from the database, Aubade's first start with nothing saved; and Aubade's RSS with no music
# folder before the MPD work (MPD_BASELINE, built once in .build/bench/baseline-REV) and now.
# On PulseAudio; about 10 minutes. Writes .build/bench/mpd.{md,json}.
# MPD_BASELINE: the commit before the MPD front-end's work.
MPD_BASELINE ?= 0e81827
# Then the web benchmark (issue 37): Aubade's page (release binary) beside Iris on Mopidy
# (Debian's mopidy, mopidy-local, mopidy-mpris; Mopidy-Iris from PyPI, pinned in
# scripts/install-deps), one at a time on the same generated library of 20,000 tracks in 2,000
# albums with covers (made once in .build/bench/web-library, seconds), in headless Chromium as a
# phone (python3-selenium, Tests/TestSupport/Scripts/web_bench.py): page load to the first cover
# and to the first screen of covers (empty and warm cache), bytes received, search to results,
# `playerctl play-pause` to the page showing it, the server's CPU and RSS idle with and without
# the page; then Aubade with --http-address none. AUBADE_BENCH_RUNS (default 5) of each,
# AUBADE_BENCH_WEB_IDLE_SECONDS (30) per idle figure. On PulseAudio; about 10 minutes (Mopidy's
# `mopidy local scan` alone is 2-3). Writes .build/bench/web.{md,json}.

# BENCH picks the parts, one or more of: session (audio session, queue, hostile calls, faults:
# the debug build, PulseAudio and PipeWire), peers, streams, library, guard, snapcast, formats,
# mpd, web; all (the default) is all nine. E.g. BENCH=peers or BENCH=guard runs that benchmark alone,
# BENCH="peers streams" both.
BENCH ?= all

bench: bench-deps
	@for part in $(BENCH); do \
	    case $$part in all|session|peers|streams|library|guard|snapcast|formats|mpd|web) ;; \
	    *) echo "make bench: unknown BENCH part '$$part' (all, session, peers, streams, library, guard, snapcast, formats, mpd, web)" >&2; exit 2;; esac; \
	done
	swift build --build-tests $(SWIFT_FLAGS)
	$(RELEASE_BUILD) --product aubade-ffmpeg
	$(RELEASE_BUILD) --product aubade
	@parts=" $(BENCH) "; wants() { [[ $$parts == *" all "* || $$parts == *" $$1 "* ]]; }; status=0; \
	release="$(RELEASE_BIN)/aubade"; \
	build_baseline() { \
	    local revision=$$1 why=$$2 baseline=".build/bench/baseline-$$1"; \
	    [[ -x $$baseline/.build/release/aubade ]] && return 0; \
	    echo "=== make bench: building the baseline $$revision ($$why) in $$baseline, once"; \
	    rm -rf "$$baseline" && mkdir -p "$$baseline" && git archive "$$revision" | tar -x -C "$$baseline" \
	        && (cd "$$baseline" && eval "$$3"); \
	}; \
	if wants session; then \
	rm -f .build/bench/audio-session.json .build/bench/audio-session.md; \
	AUBADE_BENCH=1 AUBADE_BENCH_DIR="$(CURDIR)/.build/bench" scripts/audio-session --server pulseaudio -- \
	    swift test --skip-build $(SWIFT_FLAGS) --filter '^BenchmarkTests\.' --skip '(Peer|Stream|Library|Guard|Snapcast|MPD|Web)BenchmarkTests|Formats' || status=$$?; \
	AUBADE_BENCH=1 AUBADE_BENCH_DIR="$(CURDIR)/.build/bench" scripts/audio-session --server pipewire -- \
	    swift test --skip-build $(SWIFT_FLAGS) --filter '^BenchmarkTests\.' --skip '(Peer|Stream|Library|Guard|Snapcast|MPD|Web)BenchmarkTests|Formats' || status=$$?; \
	fi; \
	if wants peers; then \
	rm -f .build/bench/peers.json .build/bench/peers.md; \
	echo "=== make bench: Aubade (release) beside its peers, on PulseAudio"; \
	AUBADE_BENCH=1 AUBADE_BENCH_DIR="$(CURDIR)/.build/bench" AUBADE_BINARY="$$release" \
	    scripts/audio-session --server pulseaudio -- \
	    swift test --skip-build $(SWIFT_FLAGS) --filter '^BenchmarkTests\.PeerBenchmarkTests' || status=$$?; \
	fi; \
	if wants streams; then \
	rm -f .build/bench/streams.json .build/bench/streams.md; \
	echo "=== make bench: internet radio, Aubade (release) beside its peers on one icecast2 mount, on PulseAudio"; \
	AUBADE_BENCH=1 AUBADE_BENCH_DIR="$(CURDIR)/.build/bench" AUBADE_BINARY="$$release" \
	    scripts/audio-session --server pulseaudio -- \
	    swift test --skip-build $(SWIFT_FLAGS) --filter '^BenchmarkTests\.StreamBenchmarkTests' || status=$$?; \
	fi; \
	if wants library; then \
	rm -f .build/bench/library.json .build/bench/library.md; \
	echo "=== make bench: a 500-track library, cold and warm, beside mpd, on PulseAudio"; \
	AUBADE_BENCH=1 AUBADE_BENCH_DIR="$(CURDIR)/.build/bench" AUBADE_BINARY="$$release" \
	    scripts/audio-session --server pulseaudio -- \
	    swift test --skip-build $(SWIFT_FLAGS) --filter '^BenchmarkTests\.LibraryBenchmarkTests' || status=$$?; \
	fi; \
	if wants guard; then \
	rm -f .build/bench/guard.json .build/bench/guard.md; \
	for server in pulseaudio pipewire; do \
	echo "=== make bench: aubade guard (release) and mpv + mpv-mpris on unplug, beside mpv alone, on $$server"; \
	AUBADE_BENCH=1 AUBADE_BENCH_DIR="$(CURDIR)/.build/bench" AUBADE_BINARY="$$release" \
	    scripts/audio-session --server $$server -- \
	    swift test --skip-build $(SWIFT_FLAGS) --filter '^BenchmarkTests\.GuardBenchmarkTests' || status=$$?; \
	done; \
	fi; \
	if wants snapcast; then \
	rm -f .build/bench/snapcast.json .build/bench/snapcast.md; \
	echo "=== make bench: Snapcast, Aubade (release) beside mpd's fifo output, two rooms, on PulseAudio"; \
	AUBADE_BENCH=1 AUBADE_BENCH_DIR="$(CURDIR)/.build/bench" AUBADE_BINARY="$$release" \
	    scripts/audio-session --server pulseaudio -- \
	    swift test --skip-build $(SWIFT_FLAGS) --filter '^BenchmarkTests\.SnapcastBenchmarkTests' || status=$$?; \
	fi; \
	if wants formats; then \
	rm -f .build/bench/formats.json .build/bench/formats.md; \
	baseline=".build/bench/baseline-$(BASELINE)"; \
	build_baseline $(BASELINE) "before issue 21" 'swift build -c release $(SWIFT_FLAGS)' || status=$$?; \
	echo "=== make bench: M4A files, AAC and HLS stations, beside mpv and mpd; only MP3s before and after; on PulseAudio"; \
	AUBADE_BENCH=1 AUBADE_BENCH_DIR="$(CURDIR)/.build/bench" AUBADE_BINARY="$$release" \
	    AUBADE_BASELINE_BINARY="$(CURDIR)/$$baseline/.build/release/aubade" AUBADE_BASELINE_REVISION="$(BASELINE)" \
	    scripts/audio-session --server pulseaudio -- \
	    swift test --skip-build $(SWIFT_FLAGS) --filter '^BenchmarkTests\.Formats' || status=$$?; \
	fi; \
	if wants mpd; then \
	rm -f .build/bench/mpd.json .build/bench/mpd.md; \
	baseline=".build/bench/baseline-$(MPD_BASELINE)"; \
	build_baseline $(MPD_BASELINE) "before the MPD work" \
	    'swift build -c release $(RELEASE_FLAGS) $(SWIFT_FLAGS) --product aubade' || status=$$?; \
	echo "=== make bench: the MPD front-end beside mpd 0.23 on 100,000 tracks; no music folder before and after; on PulseAudio"; \
	AUBADE_BENCH=1 AUBADE_BENCH_DIR="$(CURDIR)/.build/bench" AUBADE_BINARY="$$release" \
	    AUBADE_BENCH_REVISION="$$(git rev-parse --short HEAD)$$(git diff --quiet HEAD -- Sources Package.swift || echo +changes)" \
	    AUBADE_MPD_BASELINE_BINARY="$(CURDIR)/$$baseline/.build/release/aubade" AUBADE_MPD_BASELINE_REVISION="$(MPD_BASELINE)" \
	    scripts/audio-session --server pulseaudio -- \
	    swift test --skip-build $(SWIFT_FLAGS) --filter '^BenchmarkTests\.MPDBenchmarkTests' || status=$$?; \
	fi; \
	if wants web; then \
	rm -f .build/bench/web.json .build/bench/web.md; \
	echo "=== make bench: the page beside Mopidy + Iris on 20,000 tracks, in headless Chromium as a phone; on PulseAudio"; \
	AUBADE_BENCH=1 AUBADE_BENCH_DIR="$(CURDIR)/.build/bench" AUBADE_BINARY="$$release" \
	    AUBADE_BENCH_REVISION="$$(git rev-parse --short HEAD)$$(git diff --quiet HEAD -- Sources Package.swift web || echo +changes)" \
	    scripts/audio-session --server pulseaudio -- \
	    swift test --skip-build $(SWIFT_FLAGS) --filter '^BenchmarkTests\.WebBenchmarkTests' || status=$$?; \
	fi; \
	exit $$status

run: release
	AUBADE_BINARY="$(RELEASE_BIN)/aubade" scripts/serve $(MUSIC)

clean:
	swift package clean $(SWIFT_FLAGS)

# --- make install / make uninstall -------------------------------------------------------------
# A user (the default): PREFIX=~/.local, the unit in ~/.config/systemd/user ($XDG_CONFIG_HOME),
# the activation file in ~/.local/share/dbus-1/services ($XDG_DATA_HOME), the desktop entry in
# ~/.local/share/applications and its icon in ~/.local/share/icons/hicolor: the places a user's
# systemd, session bus and desktop look. Root: PREFIX=/usr/local, $(PREFIX)/lib/systemd/user and
# $(PREFIX)/share/{dbus-1/services,applications,icons}, seen by every user.
# The unit, the activation file and the desktop entry get the real path of the binary (@bindir@). DESTDIR stages
# everything under another root (packaging); the files still name the final paths.
# What was installed (files, and the folders that had to be created) is listed in MANIFEST;
# `make uninstall` (same PREFIX) removes exactly that. BINARY=path installs that binary instead
# of building a release one (the tests use it); HELPER=path the FFmpeg helper (default: the
# aubade-ffmpeg beside BINARY), installed beside aubade, where aubade looks for it.
ifeq ($(shell id -u),0)
PREFIX ?= /usr/local
USER_UNIT_DIR ?= $(PREFIX)/lib/systemd/user
DATA_DIR ?= $(PREFIX)/share
else
PREFIX ?= $(HOME)/.local
USER_UNIT_DIR ?= $(or $(XDG_CONFIG_HOME),$(HOME)/.config)/systemd/user
DATA_DIR ?= $(or $(XDG_DATA_HOME),$(HOME)/.local/share)
endif
DBUS_SERVICES_DIR ?= $(DATA_DIR)/dbus-1/services
# The desktop entry MPRIS's DesktopEntry names, and its icon: desktop shells show Aubade's name
# and icon in their media controls from these.
APPLICATIONS_DIR ?= $(DATA_DIR)/applications
ICON_DIR ?= $(DATA_DIR)/icons/hicolor/scalable/apps
BINDIR ?= $(PREFIX)/bin
MANIFEST ?= $(PREFIX)/share/aubade/install-manifest
# The page's files (web/), where aubade looks for them: ../share/aubade/web beside the binary.
WEB_DIR ?= $(PREFIX)/share/aubade/web
WEB_FILES := index.html app.css app.js manifest.webmanifest icon.svg
DESTDIR ?=
BINARY ?=
HELPER ?=

install:
	@set -euo pipefail; \
	binary='$(BINARY)'; \
	if [[ -z $$binary ]]; then \
	    echo "make install: $(RELEASE_BUILD) --product aubade-ffmpeg, then --product aubade"; \
	    $(RELEASE_BUILD) --product aubade-ffmpeg; \
	    $(RELEASE_BUILD) --product aubade; \
	    binary="$(RELEASE_BIN)/aubade"; \
	fi; \
	[[ -x $$binary ]] || { echo "make install: $$binary is not an executable" >&2; exit 1; }; \
	helper='$(HELPER)'; [[ -n $$helper ]] || helper="$$(dirname "$$binary")/aubade-ffmpeg"; \
	[[ -x $$helper ]] || { echo "make install: $$helper (the FFmpeg helper) is not an executable" >&2; exit 1; }; \
	dest='$(DESTDIR)'; manifest='$(MANIFEST)'; \
	dirs=(); \
	if [[ -f $$dest$$manifest ]]; then mapfile -t dirs < <(sed -n 's/^dir //p' "$$dest$$manifest"); fi; \
	make_dir() { \
	    local dir=$$1 missing=(); \
	    while [[ $$dir != / && ! -d $$dest$$dir ]]; do missing=("$$dir" "$${missing[@]}"); dir=$$(dirname "$$dir"); done; \
	    for dir in "$${missing[@]}"; do mkdir "$$dest$$dir"; dirs+=("$$dir"); echo "  created   $$dest$$dir/"; done; \
	}; \
	if [[ -n $$dest ]]; then mkdir -p "$$dest"; fi; \
	for dir in '$(BINDIR)' '$(USER_UNIT_DIR)' '$(DBUS_SERVICES_DIR)' '$(APPLICATIONS_DIR)' '$(ICON_DIR)' "$$(dirname "$$manifest")" '$(WEB_DIR)'; do make_dir "$$dir"; done; \
	staging=$$(mktemp -d); trap 'rm -rf "$$staging"' EXIT; \
	sed 's|@bindir@|$(BINDIR)|g' systemd/aubade.service >"$$staging/aubade.service"; \
	sed 's|@bindir@|$(BINDIR)|g' systemd/aubade-guard.service >"$$staging/aubade-guard.service"; \
	sed 's|@bindir@|$(BINDIR)|g' dbus/org.mpris.MediaPlayer2.aubade.service >"$$staging/org.mpris.MediaPlayer2.aubade.service"; \
	sed 's|@bindir@|$(BINDIR)|g' desktop/aubade.desktop >"$$staging/aubade.desktop"; \
	install -m 0755 "$$binary" "$$dest$(BINDIR)/aubade"; \
	echo "  installed $$dest$(BINDIR)/aubade  (from $$binary)"; \
	install -m 0755 "$$helper" "$$dest$(BINDIR)/aubade-ffmpeg"; \
	echo "  installed $$dest$(BINDIR)/aubade-ffmpeg  (the FFmpeg helper, from $$helper)"; \
	ln -sfn aubade "$$dest$(BINDIR)/aubade-snapcast"; \
	echo "  linked    $$dest$(BINDIR)/aubade-snapcast -> aubade  (Snapcast's controlscript=)"; \
	install -m 0644 "$$staging/aubade.service" "$$dest$(USER_UNIT_DIR)/aubade.service"; \
	echo "  installed $$dest$(USER_UNIT_DIR)/aubade.service  (systemd user unit)"; \
	install -m 0644 "$$staging/aubade-guard.service" "$$dest$(USER_UNIT_DIR)/aubade-guard.service"; \
	echo "  installed $$dest$(USER_UNIT_DIR)/aubade-guard.service  (the guard alone, for those who do not run aubade serve)"; \
	install -m 0644 "$$staging/org.mpris.MediaPlayer2.aubade.service" "$$dest$(DBUS_SERVICES_DIR)/org.mpris.MediaPlayer2.aubade.service"; \
	echo "  installed $$dest$(DBUS_SERVICES_DIR)/org.mpris.MediaPlayer2.aubade.service  (D-Bus activation)"; \
	install -m 0644 "$$staging/aubade.desktop" "$$dest$(APPLICATIONS_DIR)/aubade.desktop"; \
	echo "  installed $$dest$(APPLICATIONS_DIR)/aubade.desktop  (the name and icon desktop media controls show)"; \
	install -m 0644 desktop/aubade.svg "$$dest$(ICON_DIR)/aubade.svg"; \
	echo "  installed $$dest$(ICON_DIR)/aubade.svg"; \
	for file in $(WEB_FILES); do install -m 0644 "web/$$file" "$$dest$(WEB_DIR)/$$file"; done; \
	echo "  installed $$dest$(WEB_DIR)/  (the page for a phone or a browser: $(WEB_FILES))"; \
	{ \
	    echo "# Installed by make install from $(CURDIR); make uninstall PREFIX=$(PREFIX) removes these."; \
	    printf 'file %s\n' '$(BINDIR)/aubade' '$(BINDIR)/aubade-ffmpeg' '$(BINDIR)/aubade-snapcast' '$(USER_UNIT_DIR)/aubade.service' '$(USER_UNIT_DIR)/aubade-guard.service' \
	        '$(DBUS_SERVICES_DIR)/org.mpris.MediaPlayer2.aubade.service' '$(APPLICATIONS_DIR)/aubade.desktop' \
	        '$(ICON_DIR)/aubade.svg' "$$manifest"; \
	    for file in $(WEB_FILES); do printf 'file %s\n' '$(WEB_DIR)/'"$$file"; done; \
	    if (($${#dirs[@]} > 0)); then printf 'dir %s\n' "$${dirs[@]}" | sort -u; fi; \
	} >"$$dest$$manifest"; \
	echo "  recorded  $$dest$$manifest"; \
	if [[ -n $$dest ]]; then \
	    echo "make install: staged under DESTDIR=$$dest (the files name $(BINDIR)/aubade)"; \
	else \
	    case ":$$PATH:" in *':$(BINDIR):'*) ;; *) echo "make install: note: $(BINDIR) is not on your PATH";; esac; \
	    echo "make install: done. Next: systemctl --user daemon-reload && systemctl --user enable --now aubade"; \
	    echo "  (without enabling it, D-Bus starts it on the first call to org.mpris.MediaPlayer2.aubade)"; \
	fi

uninstall:
	@set -euo pipefail; \
	dest='$(DESTDIR)'; manifest='$(MANIFEST)'; \
	if [[ ! -f $$dest$$manifest ]]; then \
	    echo "make uninstall: no $$dest$$manifest: nothing installed with PREFIX=$(PREFIX) (give the PREFIX you installed with)" >&2; \
	    exit 1; \
	fi; \
	for name in aubade aubade-guard; do \
	    unit="$(USER_UNIT_DIR)/$$name.service"; \
	    if [[ -z $$dest ]] && grep -qxF "file $$unit" "$$dest$$manifest" \
	            && [[ -L $$(dirname "$$unit")/default.target.wants/$$name.service ]]; then \
	        echo "make uninstall: $$name is still enabled; first: systemctl --user disable --now $$name" >&2; \
	        exit 1; \
	    fi; \
	done; \
	mapfile -t files < <(sed -n 's/^file //p' "$$dest$$manifest"); \
	mapfile -t dirs < <(sed -n 's/^dir //p' "$$dest$$manifest" | sort -r); \
	for file in "$${files[@]}"; do \
	    if [[ -e $$dest$$file || -L $$dest$$file ]]; then rm -f "$$dest$$file"; echo "  removed   $$dest$$file"; \
	    else echo "  (already gone: $$dest$$file)"; fi; \
	done; \
	for dir in "$${dirs[@]}"; do \
	    [[ -d $$dest$$dir ]] || continue; \
	    if rmdir "$$dest$$dir" 2>/dev/null; then echo "  removed   $$dest$$dir/"; \
	    else echo "  kept      $$dest$$dir/ (not empty: holds files make install did not put there)"; fi; \
	done; \
	if [[ -z $$dest ]]; then \
	    echo "make uninstall: done. Next: systemctl --user daemon-reload"; \
	else \
	    echo "make uninstall: done (DESTDIR=$$dest)"; \
	fi
