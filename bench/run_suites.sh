#!/usr/bin/env bash
# Runs the standard problem suites with the release build and summarises each with
# `tsume report`. Results go to bench/results/<date-time>/<suite>.jsonl, with <suite>.txt (the
# summary table) and <suite>.html (tables and plots) next to them.
#
#   bench/run_suites.sh [--quick] [--jobs N] [--time-ms N] [--hash-mb N] [--rebuild]
#                       [--suites "practical zukou microcosmos verify"]
#
# Suites:
#   practical    ../shared/problems/practical/mate{3,5,7,9,11}.txt and extra{1,3,5,7,9}.txt
#                (38,769 mates from real games), --rules game: their lengths count every
#                interposition. One results file per input file.
#   zukou        problems/classics/zukou.tsv (将棋図巧, 100 composed problems, 9-611 plies),
#                --rules tsume.
#   microcosmos  problems/classics/microcosmos.tsv (1525 plies), --rules tsume.
#   verify       `tsume verify` of problems/classics/zukou.tsv within 30 minutes in all
#                (--total-time-ms 1800000: each problem first gets --time-ms, those the time
#                leaves unknown then share what is left): verify.jsonl, and verify.txt with
#                the text output, its verdict summary and the run's wall time. Not in the
#                default set (it takes the whole 30 minutes when problems stay unknown).
# Options:
#   --quick      only the first 200 problems of each practical file (ids stay "mate3.txt:N",
#                so quick and full runs can be compared with `tsume report NEW OLD`)
#   --jobs N     problems solved in parallel (default 1; verify: one per core); --hash-mb is
#                shared among them
#   --time-ms N  time limit per problem for every suite (default: 10 s practical, 60 s zukou,
#                600 s microcosmos; verify: 30 s for the first try)
#   --hash-mb N  table size in MB, in total (default 1024; microcosmos 512; verify: 1024 for
#                each job)
#   --rebuild    rebuild build/release first even if the binary exists
#   --suites S   which suites to run, space-separated (default: practical zukou microcosmos)
# Environment: TSUME_BIN (a tsume binary to use instead of build/release/tsume), TSUME_SHARED
# (the shared problem folder, default ../shared/problems next to the repository).
#
# Spreading a big set over cores or machines: `tsume batch --shard K/N` takes problems
# K-1, K-1+N, K-1+2N, ... of the concatenated inputs, so N shards cover every problem exactly
# once. Each shard writes its own results file; the files are simply concatenated (every line
# is self-describing) and summarised together. Use --resume to finish a shard that was cut off.
#
#   GNU parallel, 8 shards on one machine (or add -S host1,host2 for several):
#     P=../shared/problems/practical
#     parallel -j8 build/release/tsume batch --rules game --time-ms 10000 --hash-mb 512 \
#         --shard {}/8 --out shard-{}.jsonl --resume $P/mate*.txt $P/extra*.txt ::: $(seq 8)
#     cat shard-*.jsonl > merged.jsonl && build/release/tsume report merged.jsonl
#
#   Slurm job array (shards.sbatch), one shard per array task:
#     #!/bin/bash
#     #SBATCH --array=1-32 --cpus-per-task=1 --mem=2G --time=04:00:00
#     P=../shared/problems/practical
#     build/release/tsume batch --rules game --time-ms 10000 --hash-mb 1024 \
#         --shard ${SLURM_ARRAY_TASK_ID}/${SLURM_ARRAY_TASK_COUNT} \
#         --out results/shard-${SLURM_ARRAY_TASK_ID}.jsonl --resume $P/mate*.txt $P/extra*.txt
#   then, after `sbatch shards.sbatch` has finished:
#     cat results/shard-*.jsonl > merged.jsonl && build/release/tsume report merged.jsonl
#   Give every shard the same input paths in the same order: the shard split and the "source"
#   field (which --resume and the report match on) depend on them.
source "$(dirname "${BASH_SOURCE[0]}")/../tools/setup.sh"

quick=0
jobs=1
jobs_given=0
time_ms=""
hash_mb=""
rebuild=0
suites="practical zukou microcosmos"
while (($#)); do
  case "$1" in
    --quick) quick=1 ;;
    --jobs) jobs="$2"; jobs_given=1; shift ;;
    --time-ms) time_ms="$2"; shift ;;
    --hash-mb) hash_mb="$2"; shift ;;
    --rebuild) rebuild=1 ;;
    --suites) suites="$2"; shift ;;
    -h | --help) sed -n '2,/^source /p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "run_suites.sh: unknown option '$1' (try --help)" >&2; exit 2 ;;
  esac
  shift
done

shared="${TSUME_SHARED:-$TSUME_ROOT/../shared/problems}"
tsume="${TSUME_BIN:-$TSUME_ROOT/build/release/tsume}"
need_build=$rebuild
[[ -x "$tsume" ]] && "$tsume" batch --help >/dev/null 2>&1 || need_build=1
if ((need_build)); then
  if [[ -n "${TSUME_BIN:-}" ]]; then
    echo "run_suites.sh: TSUME_BIN=$tsume is not a tsume binary with the batch command" >&2
    exit 2
  fi
  tsume_install_missing
  tsume_build release -DCMAKE_BUILD_TYPE=Release
fi

out_dir="$TSUME_ROOT/bench/results/$(date +%Y%m%d-%H%M%S)"
mkdir -p "$out_dir"
echo "results in $out_dir" >&2
{
  echo "date: $(date -Iseconds)"
  echo "host: $(hostname)  cpus: $(nproc)"
  # The program's version, how it was built and the CPU: runs on different CPUs or builds are
  # not comparable in time (slider attacks by PEXT took 寿 17 s on a Zen 1 host, the rays 12 s).
  "$tsume" --version
  echo "options: quick=$quick jobs=$jobs time_ms=${time_ms:-default} hash_mb=${hash_mb:-default}"
} > "$out_dir/run-info.txt"

# run_suite NAME RULES DEFAULT_TIME_MS FILE...: one batch run into NAME.jsonl, then its report.
# SUITE_HASH_MB (when set) is the suite's table size unless --hash-mb gives one.
run_suite() {
  local name="$1" rules="$2" limit="${time_ms:-$3}" table_mb="${hash_mb:-${SUITE_HASH_MB:-1024}}"
  shift 3
  echo "== $name (--rules $rules, --time-ms $limit, --jobs $jobs)" >&2
  local status=0
  "$tsume" batch --rules "$rules" --time-ms "$limit" --hash-mb "$table_mb" --jobs "$jobs" \
    --out "$out_dir/$name.jsonl" "$@" > "$out_dir/$name.batch.txt" || status=$?
  cat "$out_dir/$name.batch.txt"
  case "$status" in
    0) ;;
    1) echo "$name: some answers contradict the stated ones (see wrong: lines above)" >&2 ;;
    2) echo "$name: bad input (see the messages above); the other problems ran" >&2
       [[ -s "$out_dir/$name.jsonl" ]] || return ;;
    130) echo "interrupted; finish with: tsume batch ... --resume --out $out_dir/$name.jsonl" >&2
         exit 130 ;;
    *) echo "$name: tsume batch failed with status $status" >&2; return ;;
  esac
  "$tsume" report "$out_dir/$name.jsonl" --html "$out_dir/$name.html" > "$out_dir/$name.txt" ||
    echo "$name: tsume report failed" >&2
}

for suite in $suites; do
  case "$suite" in
    practical)
      for file in "$shared"/practical/mate{3,5,7,9,11}.txt "$shared"/practical/extra{1,3,5,7,9}.txt; do
        [[ -f "$file" ]] || { echo "missing $file (set TSUME_SHARED)" >&2; exit 2; }
        base="$(basename "$file" .txt)"
        if ((quick)); then
          # Same basename, so the problem ids ("mate3.txt:17") match the full files'.
          mkdir -p "$out_dir/inputs"
          head -n 200 "$file" > "$out_dir/inputs/$base.txt"
          file="$out_dir/inputs/$base.txt"
        fi
        run_suite "$base" game 10000 "$file"
      done
      ;;
    zukou) run_suite zukou tsume 60000 "$TSUME_ROOT/problems/classics/zukou.tsv" ;;
    microcosmos)
      # 512 MB rather than 1 GB: 69.25M nodes instead of 68.34M, but each access to a table
      # spread over twice the memory costs more on this VM (address translation), and the
      # solve was faster in each of three back-to-back pairs: 58.1, 53.5, 54.9 s against 77.8,
      # 59.7, 57.0 s (2026-11-26, same binary).
      SUITE_HASH_MB=512 run_suite microcosmos tsume 600000 \
        "$TSUME_ROOT/problems/classics/microcosmos.tsv" ;;
    verify)
      # The budget is the run's wall time: one job per core unless --jobs says otherwise, each
      # with 1 GB unless --hash-mb (the total) says otherwise (zukou-008, the longest, takes
      # 743 s with 256 MB, 655 s with 2 GB).
      verify_jobs=$jobs
      ((jobs_given)) || verify_jobs=$(nproc)
      echo "== verify (--time-ms ${time_ms:-30000}, --total-time-ms 1800000, --jobs $verify_jobs)" >&2
      started=$(date +%s)
      status=0
      "$tsume" verify --time-ms "${time_ms:-30000}" --total-time-ms 1800000 --jobs "$verify_jobs" \
        --hash-mb "${hash_mb:-$((1024 * verify_jobs))}" \
        --out "$out_dir/verify.jsonl" "$TSUME_ROOT/problems/classics/zukou.tsv" \
        > "$out_dir/verify.txt" || status=$?
      echo "wall time: $(($(date +%s) - started)) s" >> "$out_dir/verify.txt"
      sed -n '/^summary:/,$p' "$out_dir/verify.txt"  # the summary, the run's context, the wall time
      # Status 1 only says that some of Zuko's problems are flawed (27 are, under our rules).
      ((status == 0 || status == 1)) || echo "verify: tsume verify failed with status $status" >&2
      ;;
    *) echo "run_suites.sh: unknown suite '$suite' (practical, zukou, microcosmos, verify)" >&2
       exit 2 ;;
  esac
done
echo "done: $out_dir" >&2
