# SPDX-License-Identifier: GPL-2.0-only
# The LAVA job definition of one variant batch (sourced by boards/lava/jobs.sh, which sets the
# D_* device type keys, E_* experiment keys, kf, name, dtype, traces and V_UPLOAD_*).

# job_deploy KERNEL_FLAVOUR BOOT_ARGS: the deploy action.
job_deploy() {
	_k=$(kv_get "$kf" "$1.kernel") _r=$(kv_get "$kf" "$1.ramdisk")
	_sha=$(kv_get "$kf" "$1.kernel_sha256")
	if [ "$D_DEPLOY" = tmpfs ]; then
		_app="console=$D_CONSOLE rdinit=/init panic=-1${2:+ $2}"
		cat <<EOF
- deploy:
    to: tmpfs
    os: oe
    timeout: {minutes: 5}
    images:
      kernel:
        image_arg: $(yq "-kernel {kernel} -append \"$_app\"")
        url: $(yq "$_k")
EOF
		[ -z "$_sha" ] || echo "        sha256sum: $(yq "$_sha")"
		cat <<EOF
      ramdisk:
        image_arg: '-initrd {ramdisk}'
        url: $(yq "$_r")
        compression: gz
        format: cpio.newc
        overlays:
          lava: true
EOF
		return
	fi
	cat <<EOF
- deploy:
    to: tftp
    os: oe
    timeout: {minutes: 5}
    kernel:
      url: $(yq "$_k")
      type: image
EOF
	[ -z "$_sha" ] || echo "      sha256sum: $(yq "$_sha")"
	cat <<EOF
    dtb:
      url: $(yq "$(kv_get "$kf" "$1.dtb")")
    ramdisk:
      url: $(yq "$_r")
      compression: gz
      header: u-boot
EOF
}

# job_boot: the boot action (the ramdisk's /init gives a root shell with PROMPT).
job_boot() {
	if [ "$D_BOOT" = qemu ]; then
		printf -- '- boot:\n    method: qemu\n    media: tmpfs\n'
	else
		printf -- '- boot:\n    method: u-boot\n    commands: ramdisk\n'
	fi
	printf '    timeout: {minutes: %s}\n    prompts:\n    - %s\n' "$D_BOOT_MINUTES" "$(yq "$D_PROMPT")"
}

# job_record_cmd VARIANT FIRST N KERNEL_FLAVOUR: the board-side command of the test.
job_record_cmd() {
	_c="ts-lava-run.sh --experiment $name --device-type $dtype --variant $1"
	_c="$_c --first-run $2 --runs $3 --kernel-flavour $4 --workload $E_workload"
	_sha=$(kv_get "$kf" "$4.kernel_sha256")
	[ -z "$_sha" ] || _c="$_c --kernel-sha256 $_sha"
	[ "$traces" = 0 ] || _c="$_c --traces 1"
	[ -z "${E_events:-}" ] || _c="$_c --events '$(echo "$E_events" | tr ' ' ',')'"
	for _o in iters warmup delay_us workers duration mmap callchains recorder; do
		eval "_v=\${E_$_o:-}"
		[ -z "$_v" ] || _c="$_c --$(echo "$_o" | tr _ -) $_v"
	done
	for _o in PIN_SAME PIN_CROSS; do
		eval "_v=\${P_$_o:-}"
		[ -z "$_v" ] || _c="$_c --$(echo "$_o" | tr 'A-Z_' 'a-z-') $_v"
	done
	printf '%s' "$_c"
}

# job_yaml VARIANT KERNEL_FLAVOUR BOOT_ARGS FIRST_RUN N: the whole job on stdout.
job_yaml() {
	_total=$((D_BOOT_MINUTES + 10 + $5 * D_RUN_MINUTES))
	cat <<EOF
# tickscope LAVA job (make lava-jobs; boards/lava/README.md): experiment $name, device
# type $dtype, variant $1 ($2 kernel${3:+, booted with $3}), runs $4..$(($4 + $5 - 1)).
# Submit: lavacli jobs submit THIS.yaml
device_type: $dtype
job_name: $(yq "tickscope $name $1 runs $4-$(($4 + $5 - 1))")
priority: medium
visibility: public
timeouts:
  job: {minutes: $_total}
  action: {minutes: $((_total - 2))}
  connection: {minutes: 2}
metadata:
  tickscope.experiment: $(yq "$name")
  tickscope.variant: $(yq "$1")
  tickscope.kernel: $2
  tickscope.boot_args: $(yq "$3")
  tickscope.first_run: $4
  tickscope.runs: $5
  tickscope.workload: $(yq "$E_workload")
  tickscope.traces: $traces
EOF
	if [ "$D_BOOT" = qemu ]; then
		# lava-server's qemu.jinja2 gives 512 MiB and one CPU unless told: the board's own
		printf 'context:\n  arch: %s\n  cpu: cortex-a57\n  machine: virt\n' "$D_ARCH"
		printf '  memory: %s\n  extra_options:\n  - %s\n' "${P_QEMU_MEM:-}" \
			"$(yq "-smp ${P_CPUS:-}")"
	elif [ -n "$3" ]; then
		# u-boot device types append extra_kernel_args to the board's bootargs
		printf 'context:\n  extra_kernel_args: %s\n' "$(yq "$3")"
	fi
	printf 'secrets:\n  TS_UPLOAD_URL: %s\n' "$(yq "$V_UPLOAD_URL")"
	[ -z "${V_UPLOAD_TOKEN:-}" ] || printf '  TS_UPLOAD_TOKEN: %s\n' "$(yq "$V_UPLOAD_TOKEN")"
	echo "actions:"
	job_deploy "$2" "$3"
	job_boot
	cat <<EOF
- test:
    timeout: {minutes: $(($5 * D_RUN_MINUTES + 5))}
    definitions:
    - from: inline
      name: tickscope-record
      path: inline/tickscope-record.yaml
      repository:
        metadata:
          format: Lava-Test Test Definition 1.0
          name: tickscope-record
          description: $(yq "records $E_workload on $1 with ts-record.sh, reports each run's result, uploads the run folders")
        run:
          steps:
          - $(yq "$(job_record_cmd "$1" "$4" "$5" "$2")")
EOF
}
