/**
 * The edge module's public face: code outside modules/edge/ imports only from here (docs/architecture.md,
 * "Module boundaries").
 */
export { readAgentReports } from './edge.repository';
export { agentsHealth } from './edge.service';
