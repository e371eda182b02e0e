// The alarm feature's public face: what the app shell and other features may use.
export { AlarmBadge } from './components/alarm-badge';
export { PlantAlarms } from './components/plant-alarms';
export { useAlarmEvents } from './api/alarm-events';
export { usePlantAlarms } from './api/get-plant-alarms';
export { alarmKeys } from './api/query-keys';
export { priorityKey } from './priority-key';
export { DeviceAlarmsTable } from './components/device-alarms-table';
export { PriorityTag, useAlarmText } from './components/alarm-parts';
