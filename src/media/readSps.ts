/**
 * The H.264 facts the FLV reader needs from a sequence parameter set (ITU-T H.264 7.3.2.1.1): profile, level and
 * the cropped picture size. mediabunny parses SPSs too, but only inside its own demuxers, not as an export.
 */

export interface SpsFacts {
  readonly profileIdc: number;
  readonly levelIdc: number;
  readonly width: number;
  readonly height: number;
}

/** Reads Exp-Golomb coded bits of a NAL unit's payload (emulation prevention bytes removed). */
class Bits {
  private bit = 0;
  constructor(private readonly data: Uint8Array) {}

  u(count: number): number {
    let value = 0;
    for (let i = 0; i < count; i++) {
      const byte = this.data[this.bit >> 3];
      if (byte === undefined) throw new Error('SPS ends early');
      value = value * 2 + ((byte >> (7 - (this.bit & 7))) & 1);
      this.bit++;
    }
    return value;
  }

  ue(): number {
    let zeros = 0;
    while (this.u(1) === 0) {
      if (++zeros > 31) throw new Error('SPS has a bad Exp-Golomb code');
    }
    return 2 ** zeros - 1 + this.u(zeros);
  }

  se(): number {
    const k = this.ue();
    return k % 2 === 1 ? (k + 1) / 2 : -k / 2;
  }
}

/** Drops the 0x03 of every 0x000003 (H.264 7.4.1). */
function rbsp(nal: Uint8Array): Uint8Array {
  const out: number[] = [];
  for (let i = 0; i < nal.length; i++) {
    if (i >= 2 && nal[i] === 3 && nal[i - 1] === 0 && nal[i - 2] === 0) continue;
    out.push(nal[i]!);
  }
  return Uint8Array.from(out);
}

const HIGH_PROFILES = new Set([100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135]);

function skipScalingLists(bits: Bits, count: number): void {
  for (let i = 0; i < count; i++) {
    if (!bits.u(1)) continue;
    const size = i < 6 ? 16 : 64;
    let last = 8;
    let next = 8;
    for (let j = 0; j < size && next !== 0; j++) {
      next = (last + bits.se() + 256) % 256;
      last = next === 0 ? last : next;
    }
  }
}

/** Parses an SPS NAL unit (with its one-byte NAL header). */
export function parseSps(nal: Uint8Array): SpsFacts {
  const bits = new Bits(rbsp(nal.subarray(1)));
  const profileIdc = bits.u(8);
  bits.u(8); // constraint flags
  const levelIdc = bits.u(8);
  bits.ue(); // seq_parameter_set_id
  let chroma = 1;
  let separatePlanes = 0;
  if (HIGH_PROFILES.has(profileIdc)) {
    chroma = bits.ue();
    if (chroma === 3) separatePlanes = bits.u(1);
    bits.ue(); // bit_depth_luma_minus8
    bits.ue(); // bit_depth_chroma_minus8
    bits.u(1); // qpprime_y_zero_transform_bypass_flag
    if (bits.u(1)) skipScalingLists(bits, chroma === 3 ? 12 : 8);
  }
  bits.ue(); // log2_max_frame_num_minus4
  const pocType = bits.ue();
  if (pocType === 0) bits.ue();
  else if (pocType === 1) {
    bits.u(1);
    bits.se();
    bits.se();
    const cycle = bits.ue();
    for (let i = 0; i < cycle; i++) bits.se();
  }
  bits.ue(); // max_num_ref_frames
  bits.u(1); // gaps_in_frame_num_value_allowed_flag
  const widthMbs = bits.ue() + 1;
  const heightUnits = bits.ue() + 1;
  const frameMbsOnly = bits.u(1);
  if (!frameMbsOnly) bits.u(1); // mb_adaptive_frame_field_flag
  bits.u(1); // direct_8x8_inference_flag
  let crop = [0, 0, 0, 0];
  if (bits.u(1)) crop = [bits.ue(), bits.ue(), bits.ue(), bits.ue()];
  // Table 6-1: the crop unit follows the chroma format.
  const arrayType = separatePlanes ? 0 : chroma;
  const cropX = arrayType === 0 ? 1 : arrayType === 3 ? 1 : 2;
  const cropY = (arrayType === 1 ? 2 : 1) * (2 - frameMbsOnly);
  return {
    profileIdc,
    levelIdc,
    width: widthMbs * 16 - cropX * (crop[0]! + crop[1]!),
    height: (2 - frameMbsOnly) * heightUnits * 16 - cropY * (crop[2]! + crop[3]!),
  };
}

const hex = (n: number): string => n.toString(16).padStart(2, '0');

/** RFC 6381 3.3: `avc1.` and the profile, constraint and level bytes in hex. */
export function avcCodecString(profile: number, constraints: number, level: number): string {
  return `avc1.${hex(profile)}${hex(constraints)}${hex(level)}`;
}

/** The H.264 profile's name as ffprobe writes it (what the inspector's CODECS comparison reads). */
export function avcProfileName(profile: number, constraints: number): string | undefined {
  switch (profile) {
    case 66:
      return constraints & 0x40 ? 'Constrained Baseline' : 'Baseline';
    case 77:
      return 'Main';
    case 88:
      return 'Extended';
    case 100:
      return 'High';
    case 110:
      return 'High 10';
    case 122:
      return 'High 4:2:2';
    case 244:
      return 'High 4:4:4 Predictive';
    default:
      return undefined;
  }
}
