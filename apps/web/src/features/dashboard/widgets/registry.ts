import type { ComponentType } from 'react';
import type { WidgetType } from '../model/widgets';
import { ActiveAlarmsWidget } from './active-alarms';
import { FleetKpisWidget } from './fleet-kpis';
import { MiniMapWidget } from './mini-map';
import { MonthlyEnergyWidget } from './monthly-energy';
import { OpenFaultsWidget } from './open-faults';
import { PlantPowerWidget } from './plant-power';
import { PlantStatusWidget } from './plant-status';
import { SignalWidget } from './signal-widget';
import type { WidgetProps } from './types';
import { WeatherWidget } from './weather';
import { YieldRankingWidget } from './yield-ranking';

/** The component that draws each widget type. */
export const WIDGET_COMPONENTS: Record<WidgetType, ComponentType<WidgetProps>> = {
  fleet_kpis: FleetKpisWidget,
  plant_power: PlantPowerWidget,
  monthly_energy: MonthlyEnergyWidget,
  plant_status: PlantStatusWidget,
  active_alarms: ActiveAlarmsWidget,
  mini_map: MiniMapWidget,
  weather: WeatherWidget,
  signal: SignalWidget,
  yield_ranking: YieldRankingWidget,
  open_faults: OpenFaultsWidget,
};
