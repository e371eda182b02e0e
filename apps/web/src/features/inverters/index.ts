// The inverter feature's public face: the status tag other device pages (cameras) share.
export { OperatingStatusTag } from './components/status-tag';
