/*
 * What real devices answer, kept as the fake devices' defaults. Each names its source; values are the
 * source's where it gives them.
 */

/** Fox ENERGY-3, `get_current_parameters`: corapoid/homeassistant-fox-energy-monitor tests/fixtures/3phase_current.json. */
export const FOX3_CURRENT = {
  status: 'ok',
  voltage: [239.7, 243.7, 234.6],
  current: [1.97, 0.49, 1.08],
  power_active: [353.6, 40.3, 69.7],
  power_reactive: [-311.9, -113.2, -243.8],
  frequency: [50.01, 50.01, 50.01],
  power_factor: [-0.75, -0.34, -0.27],
};

/** Fox ENERGY-3, `get_total_energy` (Wh): corapoid/homeassistant-fox-energy-monitor tests/fixtures/3phase_energy.json. */
export const FOX3_ENERGY = {
  status: 'ok',
  active_energy_import: [4951294, 1326375, 6228263],
  active_energy_export: [24, 9, 144],
  reactive_energy_import: [192, 908, 4163],
  reactive_energy_export: [2316914, 562113, 1919626],
};

/** Fox ENERGY-1, strings: corapoid/homeassistant-fox-energy-monitor tests/fixtures/1phase_current.json. */
export const FOX1_CURRENT = {
  status: 'ok',
  voltage: '234.8',
  current: '0.00',
  power_active: '3.0',
  power_reactive: '0.0',
  frequency: '50.00',
  power_factor: '-0.48',
};

/** Fox ENERGY-1, zero-padded strings: corapoid/homeassistant-fox-energy-monitor tests/fixtures/1phase_energy.json. */
export const FOX1_ENERGY = {
  status: 'ok',
  active_energy: '01871193477',
  reactive_energy: '0028500780',
  active_energy_import: '000',
  reactive_energy_import: '0014682985',
};

/** `get_device_info`: the fields of fandf92/foxrestapiclient RestApiDeviceInfoResponse (values of our fake). */
export const FOX_DEVICE_INFO = {
  status: 'ok',
  device_name: 'ENERGY-3',
  firmware: '1.0.4',
  hw: '1',
  updater: '1.0.0',
  device_friendly_name: 'Energy meter',
  device_commercial_name: 'Wi-MEF-3',
};

/** Fox's answer to a wrong key and to an unknown method: fandf92/foxrestapiclient connection/const.py. */
export const FOX_STATUS_FALSE = { status: 'false' };
export const FOX_INVALID_ACTION = { status: 'invalid_action_name' };

/** Shelly Pro 3EM `GET /shelly` (Shelly.GetDeviceInfo): Shelly Gen2 API docs, Pro 3EM. */
export const SHELLY_PRO3EM_INFO = {
  name: null,
  id: 'shellypro3em-0cb815fcaff4',
  mac: '0CB815FCAFF4',
  slot: 1,
  model: 'SPEM-003CEBEU',
  gen: 2,
  fw_id: '20230803-130540/1.0.0-gb6e2c2d',
  ver: '1.0.0',
  app: 'Pro3EM',
  auth_en: false,
  auth_domain: null,
  profile: 'triphase',
};

/** `GET /rpc/EM.GetStatus?id=0`: Shelly Gen2 API docs, EM component status example (phase b made to feed in). */
export const SHELLY_EM_STATUS = {
  id: 0,
  a_current: 4.029,
  a_voltage: 236.1,
  a_act_power: 951.2,
  a_aprt_power: 951.9,
  a_pf: 1,
  a_freq: 50,
  b_current: 4.027,
  b_voltage: 236.201,
  b_act_power: -951.1,
  b_aprt_power: 951.8,
  b_pf: 1,
  b_freq: 50,
  c_current: 3.03,
  c_voltage: 236.402,
  c_act_power: 715.4,
  c_aprt_power: 715.8,
  c_pf: 1,
  c_freq: 50,
  n_current: null,
  total_current: 11.086,
  total_act_power: 715.5,
  total_aprt_power: 2619.5,
  user_calibrated_phase: [],
};

/** `GET /rpc/EMData.GetStatus?id=0` (Wh): Shelly Gen2 API docs, EMData component status example. */
export const SHELLY_EMDATA_STATUS = {
  id: 0,
  a_total_act_energy: 2776.22,
  a_total_act_ret_energy: 0,
  b_total_act_energy: 2.18,
  b_total_act_ret_energy: 1850.03,
  c_total_act_energy: 2006.04,
  c_total_act_ret_energy: 0,
  total_act: 4784.44,
  total_act_ret: 1850.03,
};

/**
 * `EMData.GetData` keys (per phase a/b/c, then neutral): Shelly Gen2 API docs and the CSV header the
 * device's /emdata/0/data.csv shares with it (quoted by robeertm/shelly-energy-analyzer).
 */
export const SHELLY_EMDATA_KEYS = ['a', 'b', 'c'].flatMap((x) =>
  [
    'total_act_energy',
    'fund_act_energy',
    'total_act_ret_energy',
    'fund_act_ret_energy',
    'lag_react_energy',
    'lead_react_energy',
    'max_act_power',
    'min_act_power',
    'max_aprt_power',
    'min_aprt_power',
    'max_voltage',
    'min_voltage',
    'avg_voltage',
    'max_current',
    'min_current',
    'avg_current',
  ].map((k) => `${x}_${k}`),
);

/** Shelly 3EM (Gen1) `GET /shelly`: Shelly Gen1 API docs. */
export const SHELLY_3EM_INFO = {
  type: 'SHEM-3',
  mac: 'C45BBE5F8E56',
  auth: false,
  fw: '20230913-114244/v1.14.0-gcb84623',
  num_outputs: 1,
  num_emeters: 3,
};

/** Shelly 3EM (Gen1) `GET /status` emeters: Shelly Gen1 API docs, /status of the Shelly 3EM. */
export const SHELLY_3EM_EMETERS = [
  { power: 1250.5, pf: 0.98, current: 5.48, voltage: 232.1, is_valid: true, total: 5000, total_returned: 0 },
  { power: 410.2, pf: 0.91, current: 1.95, voltage: 231.4, is_valid: true, total: 3000, total_returned: 0 },
  { power: 0, pf: 0, current: 0, voltage: 230.8, is_valid: true, total: 1000, total_returned: 0 },
];

/** Tasmota plug `tele/<topic>/SENSOR`: Tasmota docs (energy monitoring) — fields and units. */
export const TASMOTA_ENERGY_SENSOR = {
  Time: '2026-11-27T06:10:05',
  ENERGY: {
    TotalStartTime: '2026-01-10T09:12:04',
    Total: 12.345,
    Yesterday: 0.852,
    Today: 0.173,
    Period: 1,
    Power: 123,
    ApparentPower: 130,
    ReactivePower: 42,
    Factor: 0.95,
    Voltage: 231,
    Current: 0.563,
  },
};

/** Tasmota SML reader of a utility meter `tele/<topic>/SENSOR`: Tasmota docs (Smart Meter Interface) names. */
export const TASMOTA_SML_SENSOR = { Time: '2026-11-27T06:10:05', SML: { Total_in: 12345.678, Total_out: 234.5, Power_curr: -420 } };
