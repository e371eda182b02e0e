import type { ReactNode } from 'react';
import AlertOutlined from '@ant-design/icons/AlertOutlined';
import AppstoreOutlined from '@ant-design/icons/AppstoreOutlined';
import BankOutlined from '@ant-design/icons/BankOutlined';
import BellOutlined from '@ant-design/icons/BellOutlined';
import BuildOutlined from '@ant-design/icons/BuildOutlined';
import DashboardOutlined from '@ant-design/icons/DashboardOutlined';
import EnvironmentOutlined from '@ant-design/icons/EnvironmentOutlined';
import FileTextOutlined from '@ant-design/icons/FileTextOutlined';
import HddOutlined from '@ant-design/icons/HddOutlined';
import LineChartOutlined from '@ant-design/icons/LineChartOutlined';
import PartitionOutlined from '@ant-design/icons/PartitionOutlined';
import SafetyOutlined from '@ant-design/icons/SafetyOutlined';
import SettingOutlined from '@ant-design/icons/SettingOutlined';
import ThunderboltOutlined from '@ant-design/icons/ThunderboltOutlined';
import ToolOutlined from '@ant-design/icons/ToolOutlined';
import UserOutlined from '@ant-design/icons/UserOutlined';
import VideoCameraOutlined from '@ant-design/icons/VideoCameraOutlined';
import FileOutlined from '@ant-design/icons/FileOutlined';

/** The icons named by the route table's `icon` field; only these are bundled. */
const ICONS: Record<string, ReactNode> = {
  AlertOutlined: <AlertOutlined />,
  AppstoreOutlined: <AppstoreOutlined />,
  BankOutlined: <BankOutlined />,
  BellOutlined: <BellOutlined />,
  BuildOutlined: <BuildOutlined />,
  DashboardOutlined: <DashboardOutlined />,
  EnvironmentOutlined: <EnvironmentOutlined />,
  FileTextOutlined: <FileTextOutlined />,
  HddOutlined: <HddOutlined />,
  LineChartOutlined: <LineChartOutlined />,
  PartitionOutlined: <PartitionOutlined />,
  SafetyOutlined: <SafetyOutlined />,
  SettingOutlined: <SettingOutlined />,
  ThunderboltOutlined: <ThunderboltOutlined />,
  ToolOutlined: <ToolOutlined />,
  UserOutlined: <UserOutlined />,
  VideoCameraOutlined: <VideoCameraOutlined />,
};

/** The menu icon of a route, or a plain page icon for a name not in the list. */
export function menuIcon(name: string | undefined): ReactNode {
  return (name && ICONS[name]) || <FileOutlined />;
}

/** Icon names this module knows (tested against the route table). */
export const KNOWN_ICONS = Object.keys(ICONS);
